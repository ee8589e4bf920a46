// Command kbbench is a load tool for a running kbserver: it drives the
// HTTP API with concurrent clients through a mix of operations (title
// searches, title, vendor and package reads, resource updates, publication
// search, resource management lists) and prints each operation's
// requests, errors, throughput and latency percentiles. Run
// "kbbench --help" for its flags.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		os.Exit(reportError(os.Stderr, err))
	}
}
