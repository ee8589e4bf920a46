package postgres_test

import (
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/testdb"
)

// slowRate is a refill rate too slow to add a token during a test: a
// bucket gives its burst, then refuses.
const slowRate = kb.MinTokenRate

// take takes a token and fails the test on error.
func take(t *testing.T, st *postgres.Store, bucket string, rate float64, burst int) time.Duration {
	t.Helper()
	wait, err := st.TakeToken(t.Context(), bucket, rate, burst)
	if err != nil {
		t.Fatalf("TakeToken(%q, %v, %d): %v", bucket, rate, burst, err)
	}
	if wait < 0 {
		t.Fatalf("TakeToken(%q, %v, %d) = %v, want 0 or a wait", bucket, rate, burst, wait)
	}
	return wait
}

// TestTakeTokenBurst checks that a bucket gives its burst, then refuses
// with a wait of at most the time one token takes, and that buckets are
// independent.
func TestTakeTokenBurst(t *testing.T) {
	st := open(t)
	for i := range 3 {
		if wait := take(t, st, "a", slowRate, 3); wait != 0 {
			t.Fatalf("take %d of a burst of 3: wait %v, want a token", i+1, wait)
		}
	}
	for range 2 {
		wait := take(t, st, "a", slowRate, 3)
		if wait <= 0 || wait > time.Duration(float64(time.Second)/slowRate) {
			t.Errorf("take after the burst: wait %v, want above 0 and at most %v", wait, time.Duration(float64(time.Second)/slowRate))
		}
	}
	if wait := take(t, st, "b", slowRate, 1); wait != 0 {
		t.Errorf("another bucket: wait %v, want a token", wait)
	}
}

// TestTakeTokenRefill checks that after waiting the duration a refusal
// returns, a token is there.
func TestTakeTokenRefill(t *testing.T) {
	st := open(t)
	var wait time.Duration
	for range 100 { // 20 tokens a second: a refusal within a few calls
		if wait = take(t, st, "r", 20, 3); wait > 0 {
			break
		}
	}
	if wait == 0 {
		t.Fatal("100 calls at 20 tokens a second, burst 3, were never refused")
	}
	time.Sleep(wait)
	if again := take(t, st, "r", 20, 3); again != 0 {
		t.Errorf("after waiting %v: wait %v, want a token", wait, again)
	}
}

// TestTakeTokenShared checks that two stores over one schema (two server
// instances) share a bucket.
func TestTakeTokenShared(t *testing.T) {
	u := testdb.NewPostgres(t)
	stores := make([]*postgres.Store, 2)
	for i := range stores {
		st, err := postgres.Open(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores[i] = st
	}
	for range 2 {
		if wait := take(t, stores[0], "shared", slowRate, 2); wait != 0 {
			t.Fatalf("first store: wait %v, want a token", wait)
		}
	}
	if wait := take(t, stores[1], "shared", slowRate, 2); wait == 0 {
		t.Error("second store took a token from the bucket the first emptied")
	}
}

// TestTakeTokenConcurrent checks that concurrent calls take no more than
// the burst.
func TestTakeTokenConcurrent(t *testing.T) {
	st := open(t)
	const callers, burst = 8, 5
	waits := make([]time.Duration, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			w, err := st.TakeToken(t.Context(), "busy", slowRate, burst)
			if err != nil {
				t.Error(err)
			}
			waits[i] = w
		})
	}
	wg.Wait()
	took := 0
	for _, w := range waits {
		if w == 0 {
			took++
		}
	}
	if took != burst {
		t.Errorf("%d concurrent calls with a burst of %d took %d tokens", callers, burst, took)
	}
}

// TestTakeTokenInvalid checks that a rate or burst that describes no
// bucket is refused.
func TestTakeTokenInvalid(t *testing.T) {
	st := open(t)
	for _, c := range []struct {
		rate  float64
		burst int
	}{{0, 1}, {-1, 1}, {math.NaN(), 1}, {math.Inf(1), 1}, {1, 0}, {1, -3}, {kb.MinTokenRate / 2, 1}, {1, kb.MaxTokenBurst + 1}} {
		if _, err := st.TakeToken(t.Context(), "x", c.rate, c.burst); kb.ErrorCode(err) != kb.CodeInvalid {
			t.Errorf("TakeToken(rate %v, burst %d) = %v, want CodeInvalid", c.rate, c.burst, err)
		}
	}
}

// TestTakeTokenSweep checks that a store deletes the buckets that are full
// again, and only those.
func TestTakeTokenSweep(t *testing.T) {
	u := testdb.NewPostgres(t)
	a, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	take(t, a, "fast", 50, 1) // full again 20 ms later
	time.Sleep(100 * time.Millisecond)
	// A store that has not swept yet sweeps at its first call.
	b, err := postgres.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	take(t, b, "slow", slowRate, 2)
	rows, err := b.Pool().Query(t.Context(), `SELECT bucket FROM rate_buckets ORDER BY bucket`)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		left = append(left, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(left, []string{"slow"}) {
		t.Errorf("buckets after the sweep = %q, want only the one not full", left)
	}
}
