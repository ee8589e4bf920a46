package resolverstats_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolverstats"
	"github.com/kbserver/kbserver/internal/testdb"
)

// may is the month the tests' events happen in.
var may = time.Date(2024, 5, 14, 10, 0, 0, 0, time.UTC)

// event returns a request of customer "lib" in May 2024 from source src,
// with the full text or without (then seeking title).
func event(src string, fullText bool, title string) kb.ResolverEvent {
	ev := kb.ResolverEvent{CustomerID: "lib", Time: may, Source: src, FullText: fullText}
	if fullText {
		ev.TitleID, ev.PackageID = 7, 3
	} else {
		ev.SoughtTitle = title
	}
	return ev
}

// stats reads lib's statistics of May 2024 by source.
func stats(t *testing.T, st kb.Store) kb.ResolverStats {
	t.Helper()
	s, err := st.ResolverStats(t.Context(), "lib", kb.ResolverStatsQuery{By: kb.StatsBySource, From: "2024-05", To: "2024-05"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFlushAddsUp: events recorded at once by many requests reach the
// store at the flush, each counted once; two recorders (two servers) over
// one store add up; a flush with nothing new writes nothing.
func TestFlushAddsUp(t *testing.T) {
	st := testdb.Open(t)
	a, b := resolverstats.New(st, nil), resolverstats.New(st, nil)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			a.RecordResolution(event("pubmed", i%5 != 0, "Journal of Nothing"))
			b.RecordResolution(event("scholar", false, "A Rare Book"))
		})
	}
	wg.Wait()
	if keys, dropped := a.Pending(); keys != 3 || dropped != 0 {
		t.Errorf("a: %d keys pending, %d dropped; want 3 (full text, not, the unmet demand) and 0", keys, dropped)
	}
	if got := stats(t, st); got.Totals.Requests != 0 {
		t.Fatalf("the store has %d requests before a flush", got.Totals.Requests)
	}
	for _, r := range []*resolverstats.Recorder{a, b, a, b} { // the second flushes have nothing new
		if err := r.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	got := stats(t, st)
	want := []kb.ResolverStatsRow{
		{Source: "pubmed", ResolverTally: kb.ResolverTally{Requests: 50, FullText: 40}},
		{Source: "scholar", ResolverTally: kb.ResolverTally{Requests: 50}},
	}
	if len(got.Rows) != 2 || got.Rows[0] != want[0] || got.Rows[1] != want[1] {
		t.Errorf("rows %+v, want %+v", got.Rows, want)
	}
	l, err := st.UnmetDemand(t.Context(), "lib", kb.UnmetQuery{From: "2024-05", To: "2024-05"})
	if err != nil {
		t.Fatal(err)
	}
	wantUnmet := []kb.UnmetDemand{{Title: "A Rare Book", Requests: 50, LastMonth: "2024-05"}, {Title: "Journal of Nothing", Requests: 10, LastMonth: "2024-05"}}
	if len(l.Items) != 2 || l.Items[0] != wantUnmet[0] || l.Items[1] != wantUnmet[1] {
		t.Errorf("unmet demand %+v, want %+v", l.Items, wantUnmet)
	}
	// More after the flush: the next one adds them.
	a.RecordResolution(event("pubmed", true, ""))
	if err := a.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := stats(t, st); got.Totals.Requests != 101 {
		t.Errorf("%d requests after a third flush, want 101", got.Totals.Requests)
	}
}

// TestBoundedKeys: beyond the maximum of keys waiting, an event with a new
// key is dropped (one with a known key is still counted), and the flush
// logs how many were.
func TestBoundedKeys(t *testing.T) {
	st := testdb.Open(t)
	var logs bytes.Buffer
	r := resolverstats.New(st, slog.New(slog.NewTextHandler(&logs, nil))).WithMaxKeys(3)
	r.RecordResolution(event("a", true, ""))
	r.RecordResolution(event("b", false, "Sought")) // two keys: three in all
	r.RecordResolution(event("c", true, ""))        // a fourth: dropped
	r.RecordResolution(event("b", false, "Other"))  // a new unmet key: dropped whole
	r.RecordResolution(event("a", true, ""))        // known: counted
	r.RecordResolution(event("b", false, "Sought")) // known: counted
	if keys, dropped := r.Pending(); keys != 3 || dropped != 2 {
		t.Errorf("%d keys pending, %d dropped; want 3 and 2", keys, dropped)
	}
	if err := r.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := stats(t, st).Totals; got.Requests != 4 || got.FullText != 2 {
		t.Errorf("totals %+v, want 4 requests, 2 with full text", got)
	}
	if !strings.Contains(logs.String(), "dropped=2") || !strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("the flush logged %q; want a warning with dropped=2", logs.String())
	}
	if keys, dropped := r.Pending(); keys != 0 || dropped != 0 {
		t.Errorf("after the flush: %d keys pending, %d dropped", keys, dropped)
	}
	// Room again after the flush.
	r.RecordResolution(event("c", true, ""))
	if keys, dropped := r.Pending(); keys != 1 || dropped != 0 {
		t.Errorf("after the flush, a new key: %d keys pending, %d dropped; want 1 and 0", keys, dropped)
	}
}

// failing is a store whose writes fail while fail is set.
type failing struct {
	kb.ResolverCountWriter
	fail atomic.Bool
}

var errDown = errors.New("database down")

func (f *failing) AddResolverCounts(ctx context.Context, c kb.ResolverCounts) error {
	if f.fail.Load() {
		return errDown
	}
	return f.ResolverCountWriter.AddResolverCounts(ctx, c)
}

// TestFailedFlushKeeps: counts whose flush fails wait for the next one,
// added to those recorded since.
func TestFailedFlushKeeps(t *testing.T) {
	st := testdb.Open(t)
	f := &failing{ResolverCountWriter: st}
	r := resolverstats.New(f, nil)
	f.fail.Store(true)
	r.RecordResolution(event("a", true, ""))
	r.RecordResolution(event("b", false, "Sought"))
	if err := r.Flush(t.Context()); !errors.Is(err, errDown) {
		t.Fatalf("Flush = %v, want the store's error", err)
	}
	r.RecordResolution(event("a", true, ""))
	if keys, _ := r.Pending(); keys != 3 {
		t.Errorf("%d keys pending after the failed flush, want 3", keys)
	}
	f.fail.Store(false)
	if err := r.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := stats(t, st)
	if got.Totals.Requests != 3 || got.Totals.FullText != 2 {
		t.Errorf("totals %+v, want 3 requests, 2 with full text", got.Totals)
	}
}

// TestJob: the job flushes every FlushEvery under its name.
func TestJob(t *testing.T) {
	st := testdb.Open(t)
	r := resolverstats.New(st, nil)
	j := r.Job()
	if j.Name != resolverstats.JobName || j.Every != resolverstats.FlushEvery || j.Every <= 0 {
		t.Errorf("job %q every %s", j.Name, j.Every)
	}
	r.RecordResolution(event("a", true, ""))
	if err := j.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := stats(t, st).Totals.Requests; got != 1 {
		t.Errorf("%d requests after the job's pass, want 1", got)
	}
}
