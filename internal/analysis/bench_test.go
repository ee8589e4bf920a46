package analysis_test

import (
	"context"
	"database/sql"
	"flag"
	"slices"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver, for the baseline's bare SQL

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/store"
)

// The collection analysis' benchmarks over a generated knowledge base in
// a SQLite file (kbserver gen, with --large-packages and a customer):
//
//	kbserver gen --titles 300000 --large-packages 130000,110000,100000 --customer big=150000 --bulk on --db k300.db
//	go test -run '^$' -bench Analysis -benchtime 20x ./internal/analysis -args -analysis-db k300.db
//
// Each iteration times an overlap of the two largest packages, the
// largest against the customer's holdings and the first page of the
// customer's duplicates; the baseline, in the same iteration, is the bare
// SQL count of the two packages' shared titles. The first answer (the
// index built: s/index), the first duplicates (the selection's sets
// derived: first-duplicates-ms) and the first overlap and against (the
// packages' coverage read: s/first-overlap, s/first-against) are reported
// apart. -analysis-baseline=false leaves the baseline out (for a profile).
var (
	analysisDB       = flag.String("analysis-db", "", "a SQLite knowledge base for the analysis benchmarks (kbserver gen)")
	analysisCustomer = flag.String("analysis-customer", "big", "the customer of the analysis benchmarks")
	analysisBaseline = flag.Bool("analysis-baseline", true, "time the bare SQL baseline too (false: for a profile of the analysis alone)")
)

func BenchmarkAnalysis(b *testing.B) {
	if *analysisDB == "" {
		b.Skip("no -analysis-db: give a knowledge base made by kbserver gen (see the comment)")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *analysisDB)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	db, err := sql.Open("sqlite", "file:"+*analysisDB+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var largest []int64
	rows, err := db.QueryContext(ctx, `SELECT id FROM packages WHERE customer_id IS NULL ORDER BY title_count DESC LIMIT 2`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		largest = append(largest, id)
	}
	rows.Close()
	if len(largest) < 2 {
		b.Fatal("fewer than two packages")
	}
	f := finder.New(ctx, st, search.Options{Inline: true})
	svc := analysis.New(st, f)
	cust := *analysisCustomer
	t0 := time.Now()
	if _, _, err := f.Holdings(ctx, cust); err != nil {
		b.Fatal(err)
	}
	indexed := time.Since(t0)
	// The first duplicates derive the selection's sets (each selected
	// package's, their union, the titles selected twice), kept until the
	// customer's selection or the index changes.
	t0 = time.Now()
	if _, _, _, err := svc.Duplicates(ctx, cust, kb.Page{Count: 25, Number: 1}); err != nil {
		b.Fatal(err)
	}
	coldDups := time.Since(t0)
	// The first overlap and the first against read the packages' coverage.
	t0 = time.Now()
	if _, err := svc.Overlap(ctx, cust, kb.OverlapQuery{PackageIDs: largest}); err != nil {
		b.Fatal(err)
	}
	coldOverlap := time.Since(t0)
	t0 = time.Now()
	if _, err := svc.Against(ctx, cust, kb.OverlapQuery{PackageIDs: largest[:1], AgainstHoldings: true}); err != nil {
		b.Fatal(err)
	}
	coldAgainst := time.Since(t0)
	var over, against, dups, bare []time.Duration
	var o kb.Overlap
	var a kb.Against
	var total int
	b.ResetTimer()
	for range b.N {
		t := time.Now()
		if o, err = svc.Overlap(ctx, cust, kb.OverlapQuery{PackageIDs: largest}); err != nil {
			b.Fatal(err)
		}
		over = append(over, time.Since(t))
		t = time.Now()
		if a, err = svc.Against(ctx, cust, kb.OverlapQuery{PackageIDs: largest[:1], AgainstHoldings: true}); err != nil {
			b.Fatal(err)
		}
		against = append(against, time.Since(t))
		t = time.Now()
		if _, total, _, err = svc.Duplicates(ctx, cust, kb.Page{Count: 25, Number: 1}); err != nil {
			b.Fatal(err)
		}
		dups = append(dups, time.Since(t))
		if !*analysisBaseline {
			continue
		}
		t = time.Now()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM resources a JOIN resources b ON b.package_id = ? AND b.title_id = a.title_id
			WHERE a.package_id = ?`, largest[1], largest[0]).Scan(&n); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(t))
		if n != o.SharedCount {
			b.Fatalf("the index shares %d titles, SQL %d", o.SharedCount, n)
		}
	}
	b.StopTimer()
	med := func(ds []time.Duration) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[len(s)/2].Microseconds()) / 1000
	}
	b.ReportMetric(indexed.Seconds(), "s/index")
	b.ReportMetric(float64(coldDups.Microseconds())/1000, "first-duplicates-ms")
	b.ReportMetric(coldOverlap.Seconds(), "s/first-overlap")
	b.ReportMetric(coldAgainst.Seconds(), "s/first-against")
	b.ReportMetric(med(over), "overlap-ms")
	b.ReportMetric(med(against), "against-ms")
	b.ReportMetric(med(dups), "duplicates-ms")
	if len(bare) > 0 {
		b.ReportMetric(med(bare), "sql-shared-ms")
	}
	kept, classes := analysis.Kept(svc)
	b.Logf("packages %v: %d and %d titles, %d shared, %d same coverage; against: %d held, %d fully; %d duplicates; coverage kept of %d resources, %d distinct",
		largest, o.Packages[0].TitleCount, o.Packages[1].TitleCount, o.SharedCount, o.SameCoverageCount, a.HeldCount, a.HeldFullyCount, total, kept, classes)
}
