package ratelimit

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// clock is a settable time for the tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestMemoryBurstThenRefill(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := newMemory(c.now)
	ctx := t.Context()
	take := func() time.Duration {
		t.Helper()
		wait, err := m.TakeToken(ctx, "key:1", 2, 3) // 2 a second, bursts of 3
		if err != nil {
			t.Fatal(err)
		}
		return wait
	}
	for i := range 3 {
		if w := take(); w != 0 {
			t.Fatalf("request %d of the burst waited %v", i+1, w)
		}
	}
	if w := take(); w != 500*time.Millisecond {
		t.Fatalf("after the burst: wait %v, want 500ms (one token at 2/s)", w)
	}
	// A refused request takes nothing: after half a second one token is there.
	c.advance(500 * time.Millisecond)
	if w := take(); w != 0 {
		t.Fatalf("after the wait: %v", w)
	}
	if w := take(); w != 500*time.Millisecond {
		t.Fatalf("second after the wait: %v", w)
	}
	// Other buckets are separate.
	if w, _ := m.TakeToken(ctx, "key:2", 2, 3); w != 0 {
		t.Errorf("another key waited %v", w)
	}
	// A long pause refills up to the burst, no more.
	c.advance(time.Hour)
	for i := range 3 {
		if w := take(); w != 0 {
			t.Fatalf("after an hour, request %d waited %v", i+1, w)
		}
	}
	if w := take(); w == 0 {
		t.Fatal("the bucket held more than its burst after an hour")
	}
}

// TestMemoryClockNeverGoesBack: a take whose clock reading is older than
// the bucket's time (a reading taken before another take, or a wall clock
// stepped back) refills nothing, so that no time is counted twice.
func TestMemoryClockNeverGoesBack(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	c := &clock{t: start}
	m := newMemory(c.now)
	var waits []time.Duration
	for _, at := range []time.Duration{0, time.Second, time.Second / 2, 3 * time.Second / 2} {
		c.mu.Lock()
		c.t = start.Add(at)
		c.mu.Unlock()
		w, err := m.TakeToken(t.Context(), "k", 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w)
	}
	want := []time.Duration{0, 0, time.Second, time.Second / 2}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("waits %v, want %v", waits, want)
		}
	}
}

func TestMemoryForgetsFullBuckets(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := newMemory(c.now)
	for i := range 100 {
		if _, err := m.TakeToken(t.Context(), "key:"+string(rune('A'+i)), 10, 5); err != nil {
			t.Fatal(err)
		}
	}
	if n := m.size(); n != 100 {
		t.Fatalf("%d buckets, want 100", n)
	}
	// One token taken from 5 at 10/s is back after 0.1 s; the sweep runs
	// once a minute per shard, on the next take in that shard.
	c.advance(2 * sweepEvery)
	for i := range 100 {
		m.TakeToken(t.Context(), "key:"+string(rune('A'+i)), 10, 5)
	}
	if n := m.size(); n != 100 {
		t.Fatalf("after the sweep %d buckets, want the 100 just used", n)
	}
	c.advance(2 * sweepEvery)
	m.TakeToken(t.Context(), "other", 10, 5) // sweeps one shard only
	if n := m.size(); n >= 100 {
		t.Errorf("full buckets were not forgotten: %d held", n)
	}
}

func TestMemoryConcurrentExactBurst(t *testing.T) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := newMemory(c.now) // time stands still: no refill
	var ok atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				if w, err := m.TakeToken(t.Context(), "profile:a.b.c", 1, 5); err == nil && w == 0 {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 5 {
		t.Errorf("%d of 80 requests admitted, want exactly the burst of 5", ok.Load())
	}
}

func TestMemoryRefusesEmptyBuckets(t *testing.T) {
	m := NewMemory()
	for _, tc := range []struct {
		rate  float64
		burst int
	}{{0, 1}, {-1, 1}, {1, 0}, {1e-12, 1}, {kb.MinTokenRate / 2, 1}, {1, kb.MaxTokenBurst + 1}} {
		if _, err := m.TakeToken(t.Context(), "b", tc.rate, tc.burst); kb.ErrorCode(err) != kb.CodeInvalid {
			t.Errorf("rate %v burst %d: %v, want CodeInvalid", tc.rate, tc.burst, err)
		}
	}
}

// BenchmarkMemoryTakeToken takes tokens from 1,000 buckets in parallel.
func BenchmarkMemoryTakeToken(b *testing.B) {
	m := NewMemory()
	names := make([]string, 1000)
	for i := range names {
		names[i] = "key:" + strconv.Itoa(i)
	}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.TakeToken(b.Context(), names[i%len(names)], 1e9, 1e9)
			i++
		}
	})
}
