package scholarapi

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/scholar"
	"github.com/kbserver/kbserver/internal/testdb"
)

var (
	benchDB = flag.String("scholar-db", "",
		"database of BenchmarkScholarFiles (SQLite file or postgres:// URL), used as it is: generate it with kbserver gen "+
			"(BENCHMARKS.md), e.g. kbserver gen --db k300.db --titles 300000 --customer big=100000, and give a copy "+
			"(default: a new store of the test run's kind with a generated knowledge base of -scholar-titles titles)")
	benchCustomer = flag.String("scholar-customer", "big", "customer of BenchmarkScholarFiles in -scholar-db")
	benchTitles   = flag.Int("scholar-titles", 20_000, "titles of the knowledge base BenchmarkScholarFiles generates without -scholar-db; its customer holds about half")
)

// BenchmarkScholarFiles writes a customer's Google Scholar holdings files
// as the server does at the first fetch of a collection version (the
// store's stream of its serials through the holdings writer, into files
// of a temporary directory), and reports the median over the b.N runs in
// milliseconds (and of the processor time the process used meanwhile,
// cpu-ms: with two processors, up to twice the time), the resources of
// the customer's collection, the holdings streamed (its serials), the
// items and files written, and the microseconds per holding streamed. read-ms is the store's stream alone (the holdings counted,
// nothing written), median of as many runs.
//
//	go test -run X -bench BenchmarkScholarFiles -benchtime 5x ./internal/httpapi/scholarapi -args -scholar-db /tmp/k300-copy.db -scholar-customer big
func BenchmarkScholarFiles(b *testing.B) {
	ctx := context.Background()
	st, cust := benchStore(b)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	write := writeSet(st, logger)
	var total, cpu, read []time.Duration
	var names []string
	var holdings int
	for b.Loop() {
		dir := b.TempDir()
		start, cpu0 := time.Now(), cpuTime()
		var err error
		if names, err = write(ctx, cust, dir); err != nil {
			b.Fatal(err)
		}
		total = append(total, time.Since(start))
		cpu = append(cpu, cpuTime()-cpu0)
		b.StopTimer()
		holdings = 0
		start = time.Now()
		if err := st.CollectionSerials(ctx, cust, func(*kb.SerialHolding) error { holdings++; return nil }); err != nil {
			b.Fatal(err)
		}
		read = append(read, time.Since(start))
		for _, n := range names {
			_ = os.Remove(filepath.Join(dir, n))
		}
		b.StartTimer()
	}
	w := scholar.NewHoldingsWriter(func(string, []byte) error { return nil })
	if err := st.CollectionSerials(ctx, cust, w.Add); err != nil {
		b.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		b.Fatal(err)
	}
	collection := 0
	if err := st.CollectionHits(ctx, cust, func(h kb.PubHit) { collection += len(h.PackageIDs) }); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(collection), "collection")
	b.ReportMetric(medianMS(total), "median-ms")
	b.ReportMetric(medianMS(cpu), "cpu-ms")
	b.ReportMetric(medianMS(read), "read-ms")
	b.ReportMetric(float64(holdings), "holdings")
	b.ReportMetric(float64(w.Stats().Items), "items")
	b.ReportMetric(float64(len(names)), "files")
	if holdings > 0 {
		b.ReportMetric(medianMS(total)*1000/float64(holdings), "µs/holding")
	}
}

// cpuTime is the processor time the process used so far (user and
// system), the measure that other processes on the machine disturb
// least.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// medianMS is the median of ds in milliseconds.
func medianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// benchStore opens -scholar-db, or a new store with a generated
// knowledge base and a customer "big" holding about half its titles, and
// returns it with the customer.
func benchStore(b *testing.B) (kb.Store, string) {
	b.Helper()
	if *benchDB != "" {
		return testdb.OpenDSN(b, *benchDB), *benchCustomer
	}
	ctx := context.Background()
	st := testdb.Open(b)
	if _, err := gen.Generate(ctx, st, gen.Options{Titles: *benchTitles, Seed: 1}, nil); err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Customers(ctx, st, 1, []gen.CustomerSpec{{ID: "big", Holdings: *benchTitles}}, nil); err != nil {
		b.Fatal(err)
	}
	return st, "big"
}
