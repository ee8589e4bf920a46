package postgres

import (
	"crypto/tls"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/kbserver/kbserver/internal/testcert"
)

// tlsPair returns the two ends of a TLS connection over loopback TCP, with
// the handshake done.
func tlsPair(t *testing.T) (client, server *tls.Conn) {
	t.Helper()
	certs := testcert.New(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", certs.ServerConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			server = c.(*tls.Conn)
			err = server.Handshake()
		}
		accepted <- err
	}()
	client, err = tls.Dial("tcp", ln.Addr().String(), certs.ClientConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := <-accepted; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// exchange checks that what one end writes the other reads.
func exchange(t *testing.T, from, to net.Conn, msg string) {
	t.Helper()
	if _, err := from.Write([]byte(msg)); err != nil {
		t.Fatalf("write %q: %v", msg, err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(to, got); err != nil || string(got) != msg {
		t.Fatalf("read %q, %v; want %q", got, err, msg)
	}
}

// TestCancelWatcherKeepsTLSWritable: when an operation's context is
// cancelled, the store's connections stop waiting for the server at once
// but can still write (the Terminate that ends the server's side), and
// work as before once the operation is unwatched.
func TestCancelWatcherKeepsTLSWritable(t *testing.T) {
	client, server := tlsPair(t)
	var h ctxwatch.Handler = cancelWatcher{conn: client, grace: time.Minute}
	h.HandleCancel(t.Context())
	if _, err := client.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read after the cancel: %v, want the deadline passed", err)
	}
	exchange(t, client, server, "X") // pgx's Terminate goes out
	h.HandleUnwatchAfterCancel()
	exchange(t, server, client, "an answer") // reads wait again
	exchange(t, client, server, "the next query")
}

// TestDefaultWatcherBreaksTLSWrites is why the store does not use pgx's
// default handler: once it has cut a write, a TLS connection writes
// nothing more, not even after the deadline is lifted, so pgx cannot send
// the Terminate that would make the server hang up, and waits 15 s for it.
func TestDefaultWatcherBreaksTLSWrites(t *testing.T) {
	client, _ := tlsPair(t)
	var h ctxwatch.Handler = &pgconn.DeadlineContextWatcherHandler{Conn: client}
	h.HandleCancel(t.Context())
	if _, err := client.Write([]byte("query")); err == nil {
		t.Fatal("a write after the default handler's cancel went through")
	}
	h.HandleUnwatchAfterCancel()
	if _, err := client.Write([]byte("X")); err == nil {
		t.Fatal("the TLS connection writes again after a cut write: the store's handler may not be needed any more")
	}
}
