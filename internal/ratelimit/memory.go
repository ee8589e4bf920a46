// Package ratelimit keeps the token buckets of the rate limits (one per
// API key, one per publication search profile) in this process's memory:
// the limits of one server instance. It implements kb.RateStore, as the
// PostgreSQL store does with buckets that every instance shares.
package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// shards spreads the buckets over several locks, so that requests of
// different callers rarely wait for each other.
const shards = 32

// Memory keeps token buckets in this process's memory: the limits of one
// server instance. Buckets that have filled up again are forgotten (a
// missing bucket is a full one), so memory grows with the callers active
// in the last burst/rate seconds, not with all callers ever seen.
type Memory struct {
	now    func() time.Time
	shards [shards]shard
}

type shard struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time // when full buckets were last forgotten
}

// bucket is a token bucket: tokens at time at.
type bucket struct {
	tokens float64
	at     time.Time
	fullAt time.Time // when the bucket is full again if nothing is taken
}

// NewMemory returns an empty in-memory limiter.
func NewMemory() *Memory { return newMemory(time.Now) }

func newMemory(now func() time.Time) *Memory {
	m := &Memory{now: now}
	for i := range m.shards {
		m.shards[i].buckets = map[string]*bucket{}
	}
	return m
}

// sweepEvery is how often a shard forgets its full buckets.
const sweepEvery = time.Minute

// TakeToken implements kb.RateStore.
func (m *Memory) TakeToken(ctx context.Context, name string, rate float64, burst int) (time.Duration, error) {
	if err := check(rate, burst); err != nil {
		return 0, err
	}
	sh := &m.shards[shardOf(name)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	now := m.now() // under the lock: a bucket's time never goes back
	if now.Sub(sh.swept) >= sweepEvery {
		for k, b := range sh.buckets {
			if !now.Before(b.fullAt) {
				delete(sh.buckets, k)
			}
		}
		sh.swept = now
	}
	b := sh.buckets[name]
	if b == nil {
		b = &bucket{tokens: float64(burst), at: now}
		sh.buckets[name] = b
	}
	if now.Before(b.at) {
		now = b.at // the wall clock stepped back: refill nothing
	}
	wait, tokens := take(b.tokens, now.Sub(b.at), rate, burst)
	b.tokens, b.at = tokens, now
	b.fullAt = now.Add(seconds((float64(burst) - tokens) / rate))
	return wait, nil
}

// take refills a bucket that held tokens elapsed ago at rate tokens a
// second, up to burst, and takes one token when there is one. It returns
// the wait until a token is there (0 when one was taken) and the tokens
// left.
func take(tokens float64, elapsed time.Duration, rate float64, burst int) (time.Duration, float64) {
	if elapsed > 0 {
		tokens = math.Min(float64(burst), tokens+elapsed.Seconds()*rate)
	}
	if tokens >= 1 {
		return 0, tokens - 1
	}
	return seconds((1 - tokens) / rate), tokens
}

// seconds converts seconds to a duration, rounding up to whole
// nanoseconds so that waiting it is always enough.
func seconds(s float64) time.Duration {
	return time.Duration(math.Ceil(s * float64(time.Second)))
}

// check refuses a bucket that could never hold a token, or whose waits
// would not fit a time.Duration.
func check(rate float64, burst int) error {
	if !(rate >= kb.MinTokenRate) || math.IsInf(rate, 0) || burst < 1 || burst > kb.MaxTokenBurst {
		return kb.Errorf(kb.CodeInvalid, "rate limit: rate %v and burst %d: the rate must be a number of at least %g a second and the burst from 1 to %d",
			rate, burst, kb.MinTokenRate, kb.MaxTokenBurst)
	}
	return nil
}

// shardOf returns the shard of a bucket name (FNV-1a).
func shardOf(name string) int {
	h := uint32(2166136261)
	for i := 0; i < len(name); i++ {
		h ^= uint32(name[i])
		h *= 16777619
	}
	return int(h % shards)
}

// size returns the number of buckets held, for tests.
func (m *Memory) size() int {
	n := 0
	for i := range m.shards {
		m.shards[i].mu.Lock()
		n += len(m.shards[i].buckets)
		m.shards[i].mu.Unlock()
	}
	return n
}

var _ kb.RateStore = (*Memory)(nil)
