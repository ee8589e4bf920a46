// Command kbtest runs kbserver's tests as "go test" does and then says
// what the run did not test: every test that skipped itself, with its
// reason (no PostgreSQL, no Chromium, no nginx, …). A plain "go test ./..."
// shows a skipped suite only with -v, so a green run would not say what it
// left out; this is the README's test command. Arguments are go test's
// (default ./...); the exit status is go test's.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		os.Exit(exitCode(err, os.Stderr))
	}
}
