package main

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// newLogger returns the server's logger: text or JSON lines on w, from
// level up.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: use text or json", format)
}

// describeLimit describes a rate limit for the start-up log line.
func describeLimit(l web.Limit) string {
	if !l.On() {
		return "off"
	}
	return fmt.Sprintf("%g/s burst %d", l.Rate, l.Burst)
}
