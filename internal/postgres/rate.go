package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

var _ kb.RateStore = (*Store)(nil)

// rateSweepEvery is how often, at most, a store deletes the buckets that
// are full again (an absent bucket is full, so deleting them changes
// nothing): the table keeps about the buckets used in the last minutes.
const rateSweepEvery = time.Minute

// takeTokenSQL takes a token from bucket $1 (rate $2 tokens a second,
// burst $3) in one statement. A new bucket starts full, so its first call
// takes one of burst tokens. An existing one is locked by the upsert, then
// refilled for the time since it was last written, capped at burst
// ({refill}); a token is taken if one is there ({left} is what stays).
// The clock is the database's (clock_timestamp(), the time of the
// statement, not of its transaction), which every server shares; a
// statement whose clock reading is older than the row's (it waited for
// the lock while another took a token) refills nothing and leaves the
// row's time as it is.
var takeTokenSQL = strings.ReplaceAll(strings.ReplaceAll(`INSERT INTO rate_buckets AS b (bucket, tokens, at, full_at, took)
SELECT $1, $3::float8 - 1, n.t, n.t + make_interval(secs => 1 / $2::float8), true
FROM (SELECT clock_timestamp() AS t) n
ON CONFLICT (bucket) DO UPDATE SET
	took = {refill} >= 1,
	tokens = {left},
	at = greatest(b.at, excluded.at),
	full_at = greatest(b.at, excluded.at) + make_interval(secs => ($3::float8 - {left}) / $2::float8)
RETURNING took, tokens`,
	"{left}", `({refill} - ({refill} >= 1)::int)`),
	"{refill}", `least($3::float8, b.tokens + greatest(0, extract(epoch FROM excluded.at - b.at)::float8) * $2::float8)`)

// TakeToken takes one token from the bucket named bucket, shared by every
// store over the schema; it returns 0 when it took one, and otherwise how
// long until one will be there. CodeInvalid for a rate below
// kb.MinTokenRate or not finite, or a burst outside 1 to kb.MaxTokenBurst.
func (s *Store) TakeToken(ctx context.Context, bucket string, rate float64, burst int) (time.Duration, error) {
	if !(rate >= kb.MinTokenRate) || math.IsInf(rate, 0) || burst < 1 || burst > kb.MaxTokenBurst {
		return 0, kb.Errorf(kb.CodeInvalid, "rate bucket %q: rate %v and burst %d: the rate must be at least %g a second and the burst from 1 to %d",
			bucket, rate, burst, kb.MinTokenRate, kb.MaxTokenBurst)
	}
	var took bool
	var tokens float64
	if err := s.pool.QueryRow(ctx, takeTokenSQL, bucket, rate, float64(burst)).Scan(&took, &tokens); err != nil {
		return 0, fmt.Errorf("take a token of rate bucket %q: %w", bucket, unstorableText(err))
	}
	s.sweepRateBuckets(ctx)
	if took {
		return 0, nil
	}
	wait := time.Duration(math.Ceil((1 - tokens) / rate * float64(time.Second)))
	return max(wait, time.Nanosecond), nil // never 0, which says a token was taken
}

// sweepRateBuckets deletes the buckets that are full again, at most once
// every rateSweepEvery per store. A failure is logged, not returned: the
// call has its token, and the next sweep deletes what this one left.
func (s *Store) sweepRateBuckets(ctx context.Context) {
	now := time.Now().UnixNano()
	last := s.rateSwept.Load()
	if now-last < int64(rateSweepEvery) || !s.rateSwept.CompareAndSwap(last, now) {
		return
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM rate_buckets WHERE full_at < clock_timestamp()`); err != nil && ctx.Err() == nil {
		slog.Warn("delete full rate buckets", "err", err)
	}
}
