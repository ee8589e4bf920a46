package kb

import (
	"context"
	"time"
)

// OpsStore is what a running server asks of its store beyond the APIs:
// readiness for /readyz and statistics for /metrics.
type OpsStore interface {
	// Ready returns nil when the store answers, its schema is the one
	// this build expects and its title index has been built once, and an
	// error saying what is wrong otherwise (the database is unreachable
	// or gone, migrations are missing, the index is still being built).
	Ready(ctx context.Context) error
	// Stats returns the store's statistics. It is called at every scrape
	// of /metrics, so it must be cheap: no scan of a large table.
	Stats(ctx context.Context) (StoreStats, error)
}

// StoreStats are a store's statistics for metrics.
type StoreStats struct {
	// Pool describes the store's connection pool.
	Pool PoolStats
	// SnapshotBuildsCompleted and SnapshotBuildsFailed count the holdings
	// snapshot builds this process finished since it opened the store;
	// SnapshotBuildSeconds is their total duration.
	SnapshotBuildsCompleted int64
	SnapshotBuildsFailed    int64
	SnapshotBuildSeconds    float64
	// Imports and ImportRows count the package imports recorded in the
	// store (by every process: imports usually run as separate
	// "kbserver import" commands) and the KBART rows they received;
	// LastImport is when the newest finished (zero when none has).
	Imports    int64
	ImportRows int64
	LastImport time.Time
}

// PoolStats describes a connection pool.
type PoolStats struct {
	MaxOpen      int           // the most connections the pool opens
	Open         int           // connections open now
	InUse        int           // connections in use now
	Idle         int           // connections idle now
	WaitCount    int64         // acquisitions that had to wait, in all
	WaitDuration time.Duration // the time they waited, in all
}

// MinTokenRate is the lowest rate of a token bucket, in tokens a second:
// one token in about 17 minutes. RateStore implementations refuse lower
// rates with CodeInvalid, whose waits would overflow a time.Duration.
const MinTokenRate = 0.001

// MaxTokenBurst is the largest burst of a token bucket: with
// MinTokenRate, a bucket refills in about 32 years, which a time.Duration
// still holds.
const MaxTokenBurst = 1_000_000

// RateStore keeps token buckets in the store, so that every server
// instance over it shares them (the PostgreSQL store implements it; a
// server over a store without it keeps its buckets in memory).
type RateStore interface {
	// TakeToken takes one token from the bucket named bucket, which holds
	// at most burst tokens and gains rate tokens a second, starting full.
	// It returns 0 when a token was taken, and otherwise how long until
	// one will be there (nothing is taken then). A rate below
	// MinTokenRate, or not finite, or a burst below 1 or above
	// MaxTokenBurst, is CodeInvalid.
	TakeToken(ctx context.Context, bucket string, rate float64, burst int) (time.Duration, error)
}
