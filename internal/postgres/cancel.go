package postgres

import (
	"context"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// writeGrace is how long a write to the server in progress when its
// context is cancelled may go on (see cancelWatcher).
const writeGrace = time.Second

// cancelWatcher is how the store's connections stop an operation whose
// context is cancelled: a wait for the server's answer ends at once (the
// read deadline is now), a write in progress only after writeGrace.
//
// pgx's default handler sets both deadlines to now. A write it so
// interrupts leaves a TLS connection unable to write ever again (crypto/tls
// refuses every write after one timed out), and pgx then closes the
// connection without the Terminate message that ends the server's side of
// it: it waits for the server to hang up, which it never does, until its
// 15 s limit, and the pool's Close waits for that. A context cancelled just
// as a query is being sent (a server shutting down while its index build
// reads the store) then held kbserver serve's shutdown for 15 s, now and
// then under load and only over TLS. A query's write is small and done at
// once, so it is left to finish; the read that follows ends at once, and
// the connection is closed with its Terminate, promptly. Only a write
// the server does not take (it is busy) is cut after writeGrace, as before.
type cancelWatcher struct {
	conn  net.Conn
	grace time.Duration // writeGrace but in tests
}

// newCancelWatcher is the pool's pgconn.Config.BuildContextWatcherHandler.
func newCancelWatcher(c *pgconn.PgConn) ctxwatch.Handler {
	return cancelWatcher{conn: c.Conn(), grace: writeGrace}
}

// HandleCancel implements ctxwatch.Handler.
func (h cancelWatcher) HandleCancel(context.Context) {
	now := time.Now()
	h.conn.SetReadDeadline(now)
	h.conn.SetWriteDeadline(now.Add(h.grace))
}

// HandleUnwatchAfterCancel implements ctxwatch.Handler: the operation
// ended, the connection waits again for as long as the next one needs.
func (h cancelWatcher) HandleUnwatchAfterCancel() { h.conn.SetDeadline(time.Time{}) }
