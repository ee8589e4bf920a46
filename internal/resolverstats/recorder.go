// Package resolverstats counts what the link resolver saw (kb.ResolverEvent)
// in memory and adds the counts to the store now and then: a request only
// takes a mutex and adds one to a map, and the store sees one transaction
// of upserts every FlushEvery (Job), whatever the traffic. The store adds
// each count to the one it holds (count = count + n), so the counts of
// several servers over one database add up.
//
// Memory is bounded: at most MaxKeys distinct keys wait for a flush; an
// event that would need a key beyond them is not counted, and the next
// flush logs how many were dropped.
package resolverstats

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// FlushEvery is how often the job adds the counts to the store.
const FlushEvery = 10 * time.Second

// MaxKeys is the number of distinct keys (requests and unmet demand
// together) that wait for a flush at most; with a key's texts cut to
// kb.MaxStatsSource and kb.MaxSoughtTitle bytes, some 20 MB.
const MaxKeys = 20000

// JobName names the flush job in the log.
const JobName = "link resolver statistics: flush"

// Recorder counts resolver events in memory (kb.ResolverRecorder) until
// Flush adds them to the store. Its methods may be called concurrently.
type Recorder struct {
	store   kb.ResolverCountWriter
	logger  *slog.Logger
	maxKeys int

	mu      sync.Mutex
	pending kb.ResolverCounts
	dropped int64 // events not counted since the last flush

	flushing sync.Mutex // one flush at a time
}

// New returns a recorder that adds its counts to store; logger (nil:
// slog.Default()) tells of failed flushes and dropped events.
func New(store kb.ResolverCountWriter, logger *slog.Logger) *Recorder {
	if logger == nil {
		logger = slog.Default()
	}
	return &Recorder{store: store, logger: logger, maxKeys: MaxKeys, pending: newCounts()}
}

// WithMaxKeys sets the number of keys that wait for a flush at most
// (tests); it returns r.
func (r *Recorder) WithMaxKeys(n int) *Recorder {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.maxKeys = n
	return r
}

func newCounts() kb.ResolverCounts {
	return kb.ResolverCounts{Requests: map[kb.ResolverRequestKey]int64{}, Unmet: map[kb.UnmetKey]int64{}}
}

// RecordResolution implements kb.ResolverRecorder: it counts the event
// under the recorder's mutex, never waiting for the store. An event whose
// keys do not fit (more than the maximum of keys waiting) is dropped and
// counted as such.
func (r *Recorder) RecordResolution(ev kb.ResolverEvent) {
	req, unmet, sought := kb.ResolverEventKeys(ev)
	r.mu.Lock()
	defer r.mu.Unlock()
	need := 0
	if _, ok := r.pending.Requests[req]; !ok {
		need++
	}
	if _, ok := r.pending.Unmet[unmet]; sought && !ok {
		need++
	}
	if need > 0 && r.pending.Len()+need > r.maxKeys {
		r.dropped++
		return
	}
	r.pending.Requests[req]++
	if sought {
		r.pending.Unmet[unmet]++
	}
}

// Pending returns the number of keys waiting for a flush and the number
// of events dropped since the last one.
func (r *Recorder) Pending() (keys int, dropped int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending.Len(), r.dropped
}

// Flush adds the counts taken since the last flush to the store, in one
// transaction. When the store fails, the counts are kept for the next
// flush (as many as fit; the rest are counted as dropped) and the error
// is returned. The events dropped since the last flush are logged.
func (r *Recorder) Flush(ctx context.Context) error {
	r.flushing.Lock()
	defer r.flushing.Unlock()
	r.mu.Lock()
	counts, dropped := r.pending, r.dropped
	r.pending, r.dropped = newCounts(), 0
	r.mu.Unlock()
	if dropped > 0 {
		r.logger.Warn("link resolver statistics: requests not counted: too many distinct keys between two flushes",
			"dropped", dropped, "max_keys", r.maxKeys)
	}
	if counts.Len() == 0 {
		return nil
	}
	if err := r.store.AddResolverCounts(ctx, counts); err != nil {
		r.keep(counts)
		return err
	}
	return nil
}

// keep puts counts that could not be flushed back in with those taken
// since; a key that no longer fits is dropped.
func (r *Recorder) keep(counts kb.ResolverCounts) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, n := range counts.Requests {
		if _, ok := r.pending.Requests[k]; !ok && r.pending.Len() >= r.maxKeys {
			r.dropped += n
			continue
		}
		r.pending.Requests[k] += n
	}
	for k, n := range counts.Unmet {
		if _, ok := r.pending.Unmet[k]; !ok && r.pending.Len() >= r.maxKeys {
			continue // the request itself is counted (or dropped) above
		}
		r.pending.Unmet[k] += n
	}
}

// Job returns the background job that flushes the counts every
// FlushEvery, for the server's runner. A failed flush is the runner's to
// log; its counts wait for the next. The runner stops the job with the
// server: the last counts need a Flush of their own after the server has
// stopped taking requests.
func (r *Recorder) Job() kb.Job {
	return kb.Job{Name: JobName, Every: FlushEvery, Run: r.Flush}
}
