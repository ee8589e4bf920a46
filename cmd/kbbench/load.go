package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/store"
)

// executor runs one request of operation i with the terms rng picks and
// returns "" on success or the kind of error: the HTTP status, "transport"
// or "store".
type executor func(ctx context.Context, i int, rng *rand.Rand) string

// opResult is what the clients recorded for one operation.
type opResult struct {
	requests int
	errors   map[string]int
	samples  []float64 // latencies of the successful requests, ms
}

// runLoad runs clients executors (newExec makes each client's) over the
// operations named names, in round-robin order, for the warm-up and the
// measured duration. It returns each operation's results and the measured
// time (shorter than o.duration when ctx ends early).
func runLoad(ctx context.Context, o options, names []string, newExec func(client int) executor) ([]opResult, time.Duration) {
	n := len(names)
	t0 := time.Now()
	warmEnd := t0.Add(o.warmup)
	end := warmEnd.Add(o.duration)
	perClient := make([][]opResult, o.clients)
	var wg sync.WaitGroup
	for c := range o.clients {
		wg.Go(func() {
			exec := newExec(c)
			rngs := make([]*rand.Rand, n)
			for i, name := range names {
				rngs[i] = rngFor(o.seed, c, name)
			}
			res := make([]opResult, n)
			for pos := c * n / o.clients; ; pos++ {
				start := time.Now()
				if ctx.Err() != nil || !start.Before(end) {
					break
				}
				i := pos % n
				kind := exec(ctx, i, rngs[i])
				ms := since(start)
				if start.Before(warmEnd) || ctx.Err() != nil {
					continue
				}
				r := &res[i]
				r.requests++
				if kind != "" {
					if r.errors == nil {
						r.errors = map[string]int{}
					}
					r.errors[kind]++
				} else {
					r.samples = append(r.samples, ms)
				}
			}
			perClient[c] = res
		})
	}
	wg.Wait()
	stopped := time.Now()
	if stopped.After(end) {
		stopped = end
	}
	measured := stopped.Sub(warmEnd)
	if measured <= 0 {
		measured = o.duration
	}
	merged := make([]opResult, n)
	for _, res := range perClient {
		for i, r := range res {
			m := &merged[i]
			m.requests += r.requests
			m.samples = append(m.samples, r.samples...)
			for k, v := range r.errors {
				if m.errors == nil {
					m.errors = map[string]int{}
				}
				m.errors[k] += v
			}
		}
	}
	return merged, measured
}

// newHTTPExecutor returns an executor with its own keep-alive HTTP client.
func newHTTPExecutor(o options, ops []operation) executor {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 4
	client := &http.Client{Transport: tr, Timeout: o.timeout}
	return func(ctx context.Context, i int, rng *rand.Rand) string {
		req, err := ops[i].request(ctx, rng)
		if err != nil {
			return "transport"
		}
		resp, err := client.Do(req)
		if err != nil {
			return "transport"
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode/100 != 2:
			return strconv.Itoa(resp.StatusCode)
		case err != nil:
			return "transport"
		}
		return ""
	}
}

// runStore runs the title searches of ops straight on the store of
// o.storeDB, with the same clients, warm-up and duration as the HTTP run,
// the store answering them from a title index made ready beforehand.
func runStore(ctx context.Context, o options, ops []operation, stderr io.Writer) ([]opStats, opStats, error) {
	searches := searchOperations(ops)
	if len(searches) == 0 {
		fmt.Fprintln(stderr, "kbbench: --store-db: the mix has no title search to run on the store")
		return nil, opStats{}, nil
	}
	st, err := store.Open(ctx, o.storeDB)
	if err != nil {
		return nil, opStats{}, fmt.Errorf("--store-db: %w", err)
	}
	defer st.Close()
	if _, err := st.Customer(ctx, o.custID); err != nil {
		return nil, opStats{}, fmt.Errorf("--store-db %s: customer %q: %w", o.storeDB, o.custID, err)
	}
	finder, stopIndex, err := searchService(ctx, st, o.storeDB, stderr)
	if err != nil {
		return nil, opStats{}, fmt.Errorf("--store-db %s: %w", o.storeDB, err)
	}
	defer stopIndex() // before the store closes
	names := make([]string, len(searches))
	for i, op := range searches {
		names[i] = op.name
	}
	fmt.Fprintf(stderr, "kbbench: the same %d title searches on the store %s\n", len(searches), o.storeDB)
	exec := func(ctx context.Context, i int, rng *rand.Rand) string {
		if _, err := finder.Titles(ctx, o.custID, searches[i].search(rng)); err != nil {
			if code := kb.ErrorCode(err); code != 0 {
				return "store:" + strconv.Itoa(int(code))
			}
			return "store"
		}
		return ""
	}
	res, measured := runLoad(ctx, o, names, func(int) executor { return exec })
	stats, tot := summarize(names, res, measured)
	return stats, tot, nil
}

// searchService returns the search service over st, the store of dsn, as
// the server has, with its index made ready now rather than in the timed
// run: read from FILE.search-index, the file the server keeps beside a
// SQLite FILE, when there is one that holds the store's data, built from
// the store otherwise. The index's lines go to stderr. The stop function
// it returns ends the index's background work; call it before closing st.
func searchService(ctx context.Context, st kb.Store, dsn string, stderr io.Writer) (svc *finder.Service, stop func(), err error) {
	opts := search.Options{Inline: true, Logger: slog.New(slog.NewTextHandler(stderr, nil))}
	if file := store.IndexFile(dsn); file != "" {
		if _, err := os.Stat(file); err == nil {
			opts.File = file
		}
	}
	ictx, cancel := context.WithCancel(ctx)
	svc = finder.New(ictx, st, opts)
	stop = func() {
		cancel()
		svc.Index().Wait()
	}
	fmt.Fprintln(stderr, "kbbench: making the store's title index ready")
	start := time.Now()
	if err := svc.Index().Build(ictx, 0); err != nil {
		stop()
		return nil, nil, fmt.Errorf("title index: %w", err)
	}
	fmt.Fprintf(stderr, "kbbench: the store's title index is ready after %.1f s\n", time.Since(start).Seconds())
	return svc, stop, nil
}
