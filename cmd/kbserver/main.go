// Command kbserver is a self-hostable knowledge-base server for library
// e-resources: vendors, packages and titles, loaded from KBART files and
// served over HTTP. Run "kbserver help" for its commands.
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
