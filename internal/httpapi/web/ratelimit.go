package web

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// RateLimitMessage is the message of a request refused by a rate limit,
// as the hosted service words it.
const RateLimitMessage = "API limit has been exceeded"

// Limit is the size of a caller's token bucket: Rate requests a second on
// average, up to Burst at once. A zero Rate means no limit.
type Limit struct {
	Rate  float64
	Burst int
}

// On reports whether the limit limits anything.
func (l Limit) On() bool { return l.Rate > 0 }

// Throttle takes one token from a bucket of a Limiter for each request.
// A nil Limiter or a zero Limit lets every request through.
type Throttle struct {
	Limiter kb.RateStore
	Limit   Limit
	// Logger receives the limiter's own failures; nil means
	// slog.Default().
	Logger *slog.Logger
}

// take takes a token from the bucket for the request. When none is
// there it sets Retry-After on w (whole seconds, rounded up) and returns
// a CodeTooManyRequests error. A failing limiter (its store unreachable)
// lets the request through and logs the failure: the limit protects the
// service, it should not be what takes it down.
func (t Throttle) take(ctx context.Context, w http.ResponseWriter, bucket string) error {
	if t.Limiter == nil || !t.Limit.On() {
		return nil
	}
	wait, err := t.Limiter.TakeToken(ctx, bucket, t.Limit.Rate, t.Limit.Burst)
	if err != nil && ctx.Err() != nil {
		return nil // the client went away: nothing worth a log line
	}
	if err != nil {
		logger := t.Logger
		if logger == nil {
			logger = slog.Default()
		}
		logger.LogAttrs(ctx, slog.LevelWarn, "rate limiter failed: request let through", slog.String("error", logText(err.Error())))
		return nil
	}
	if wait <= 0 {
		return nil
	}
	w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds(wait)))
	return kb.Errorf(kb.CodeTooManyRequests, RateLimitMessage)
}

// retryAfterSeconds rounds a wait up to whole seconds, at least 1, as
// Retry-After carries them.
func retryAfterSeconds(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}
