package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// testResolverStats: the resolver's counts add up (also when several
// writers add to the same rows at once, as servers over one database
// do), the statistics group them by month, package, title and source
// with the names joined and the link-outs' clicks beside them, and the
// unmet demand lists what was sought, most asked first; every customer
// sees only its own.
func testResolverStats(t *testing.T, s Store) {
	f := LoadFixture(t, s)
	t.Run("Empty", func(t *testing.T) { testResolverStatsEmpty(t, s) })
	t.Run("Groups", func(t *testing.T) { testResolverStatsGroups(t, s, f) })
	t.Run("Clicks", func(t *testing.T) { testResolverStatsClicks(t, s, f) })
	t.Run("Unmet", func(t *testing.T) { testUnmetDemand(t, s) })
	t.Run("Concurrent", func(t *testing.T) { testResolverCountsConcurrent(t, s) })
}

func testResolverStatsEmpty(t *testing.T, s Store) {
	ctx := context.Background()
	st := must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c1", kb.ResolverStatsQuery{By: kb.StatsByMonth, From: "2023-11", To: "2024-02"}))
	want := []kb.ResolverStatsRow{{Month: "2023-11"}, {Month: "2023-12"}, {Month: "2024-01"}, {Month: "2024-02"}}
	if diff := cmp.Diff(want, st.Rows); diff != "" || st.Totals != (kb.ResolverTally{}) {
		t.Errorf("by month of an empty store (-want +got):\n%s\ntotals %+v", diff, st.Totals)
	}
	for _, by := range []kb.StatsGroup{kb.StatsByPackage, kb.StatsByTitle, kb.StatsBySource} {
		st := must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c1", kb.ResolverStatsQuery{By: by, From: "2023-11", To: "2024-02"}))
		if len(st.Rows) != 0 || st.Rows == nil {
			t.Errorf("by %s of an empty store: rows %+v, want an empty list", by, st.Rows)
		}
	}
	l := must[kb.UnmetList](t)(s.UnmetDemand(ctx, "c1", kb.UnmetQuery{From: "2023-11", To: "2024-02", Page: kb.Page{Count: 10, Number: 1}}))
	if l.Total != 0 || len(l.Items) != 0 {
		t.Errorf("unmet demand of an empty store: %+v", l)
	}
}

// addTwice adds c to the store twice at once, as two servers flushing
// their counts of the same keys would.
func addTwice(t *testing.T, s Store, c kb.ResolverCounts) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { errs[i] = s.AddResolverCounts(context.Background(), c) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("AddResolverCounts: %v", err)
		}
	}
}

func testResolverStatsGroups(t *testing.T, s Store, f Fixture) {
	ctx := context.Background()
	jot := titleID(t, s, TestingPrintISSN)
	asq := titleID(t, s, "2049-3630")
	req := func(cust string, m kb.Month, src string, title, pkg int64, ft bool) kb.ResolverRequestKey {
		return kb.ResolverRequestKey{CustomerID: cust, Month: m, Source: src, TitleID: title, PackageID: pkg, FullText: ft}
	}
	// Each count is added twice (addTwice): the statistics show double.
	addTwice(t, s, kb.ResolverCounts{Requests: map[kb.ResolverRequestKey]int64{
		req("c1", "2024-01", "pubmed", jot, f.AlphaJournals, true):   5,
		req("c1", "2024-01", "pubmed", jot, f.AlphaJournals, false):  1,
		req("c1", "2024-01", "", jot, f.BetaFull, true):              2,
		req("c1", "2024-03", "scholar", asq, f.AlphaJournals, false): 3,
		req("c1", "2024-03", "scholar", 0, 0, false):                 4,
		req("c1", "2024-05", "pubmed", jot, f.AlphaJournals, true):   100, // after the range
		req("c1", "2023-12", "pubmed", jot, f.AlphaJournals, true):   100, // before it
		req("c2", "2024-01", "pubmed", jot, f.AlphaJournals, true):   100, // another customer's
	}})
	q := func(by kb.StatsGroup) kb.ResolverStats {
		t.Helper()
		return must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c1", kb.ResolverStatsQuery{By: by, From: "2024-01", To: "2024-03"}))
	}
	tally := func(requests, fullText int64) kb.ResolverTally {
		return kb.ResolverTally{Requests: requests, FullText: fullText}
	}
	totals := tally(30, 14)
	for _, tc := range []struct {
		by   kb.StatsGroup
		want []kb.ResolverStatsRow
	}{
		{kb.StatsByMonth, []kb.ResolverStatsRow{
			{Month: "2024-01", ResolverTally: tally(16, 14)},
			{Month: "2024-02"},
			{Month: "2024-03", ResolverTally: tally(14, 0)},
		}},
		{kb.StatsByPackage, []kb.ResolverStatsRow{
			{PackageID: f.AlphaJournals, PackageName: "Alpha Journals", VendorName: "Alpha Press", ResolverTally: tally(18, 10)},
			{PackageID: 0, ResolverTally: tally(8, 0)},
			{PackageID: f.BetaFull, PackageName: "Beta Complete", VendorName: "Beta Aggregator", ResolverTally: tally(4, 4)},
		}},
		{kb.StatsByTitle, []kb.ResolverStatsRow{
			{TitleID: jot, TitleName: "Journal of Testing", ResolverTally: tally(16, 14)},
			{TitleID: 0, ResolverTally: tally(8, 0)},
			{TitleID: asq, TitleName: "Annals of Software Quality", ResolverTally: tally(6, 0)},
		}},
		{kb.StatsBySource, []kb.ResolverStatsRow{
			{Source: "scholar", ResolverTally: tally(14, 0)},
			{Source: "pubmed", ResolverTally: tally(12, 10)},
			{Source: "", ResolverTally: tally(4, 4)},
		}},
	} {
		got := q(tc.by)
		if diff := cmp.Diff(tc.want, got.Rows); diff != "" {
			t.Errorf("by %s (-want +got):\n%s", tc.by, diff)
		}
		if got.Totals != totals {
			t.Errorf("by %s: totals %+v, want %+v", tc.by, got.Totals, totals)
		}
		if got.Query.By != tc.by || got.Query.From != "2024-01" || got.Query.To != "2024-03" {
			t.Errorf("by %s: query %+v", tc.by, got.Query)
		}
	}
	// One month, and the other customer's.
	one := must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c1", kb.ResolverStatsQuery{By: kb.StatsByMonth, From: "2024-05", To: "2024-05"}))
	if want := []kb.ResolverStatsRow{{Month: "2024-05", ResolverTally: tally(200, 200)}}; !cmp.Equal(want, one.Rows) {
		t.Errorf("May 2024: %+v, want %+v", one.Rows, want)
	}
	c2 := must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c2", kb.ResolverStatsQuery{By: kb.StatsByTitle, From: "2024-01", To: "2024-03"}))
	if want := []kb.ResolverStatsRow{{TitleID: jot, TitleName: "Journal of Testing", ResolverTally: tally(200, 200)}}; !cmp.Equal(want, c2.Rows) {
		t.Errorf("c2 by title: %+v, want %+v", c2.Rows, want)
	}
}

// testResolverStatsClicks counts link-outs (in the current month) and
// finds them beside the requests.
func testResolverStatsClicks(t *testing.T, s Store, f Fixture) {
	ctx := context.Background()
	jot := titleID(t, s, TestingPrintISSN)
	goBook := titleID(t, s, GoISBN13)
	month := kb.MonthOf(time.Now())
	a := kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: jot}
	b := kb.ResourceKey{PackageID: f.AlphaBooks, TitleID: goBook}
	for _, c := range []struct {
		cust string
		key  kb.ResourceKey
		via  kb.LinkVia
		n    int
	}{{"c1", a, kb.ViaResolver, 3}, {"c1", a, kb.ViaAZ, 2}, {"c1", b, kb.ViaAZ, 1}, {"c2", a, kb.ViaResolver, 7}} {
		for range c.n {
			if err := s.CountLinkOut(ctx, c.cust, c.key, c.via); err != nil {
				t.Fatal(err)
			}
		}
	}
	if kb.MonthOf(time.Now()) != month {
		t.Skip("the month changed while the clicks were counted")
	}
	if n := must[int64](t)(s.LinkOutCount(ctx, "c1", a)); n != 5 {
		t.Errorf("LinkOutCount = %d, want 5 (every click, whatever its page)", n)
	}
	if err := s.AddResolverCounts(ctx, kb.ResolverCounts{Requests: map[kb.ResolverRequestKey]int64{
		{CustomerID: "c1", Month: month, Source: "pubmed", TitleID: jot, PackageID: f.AlphaJournals, FullText: true}: 4,
	}}); err != nil {
		t.Fatal(err)
	}
	q := func(by kb.StatsGroup) kb.ResolverStats {
		t.Helper()
		return must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c1", kb.ResolverStatsQuery{By: by, From: month, To: month}))
	}
	totals := kb.ResolverTally{Requests: 4, FullText: 4, ResolverClicks: 3, AZClicks: 3}
	for _, tc := range []struct {
		by   kb.StatsGroup
		want []kb.ResolverStatsRow
	}{
		{kb.StatsByMonth, []kb.ResolverStatsRow{{Month: month, ResolverTally: totals}}},
		{kb.StatsByPackage, []kb.ResolverStatsRow{
			{PackageID: f.AlphaJournals, PackageName: "Alpha Journals", VendorName: "Alpha Press",
				ResolverTally: kb.ResolverTally{Requests: 4, FullText: 4, ResolverClicks: 3, AZClicks: 2}},
			{PackageID: f.AlphaBooks, PackageName: "Alpha Books", VendorName: "Alpha Press", ResolverTally: kb.ResolverTally{AZClicks: 1}},
		}},
		{kb.StatsByTitle, []kb.ResolverStatsRow{
			{TitleID: jot, TitleName: "Journal of Testing", ResolverTally: kb.ResolverTally{Requests: 4, FullText: 4, ResolverClicks: 3, AZClicks: 2}},
			{TitleID: goBook, TitleName: "Learning Go", ResolverTally: kb.ResolverTally{AZClicks: 1}},
		}},
		// A click does not know the citing source: only the totals count it.
		{kb.StatsBySource, []kb.ResolverStatsRow{{Source: "pubmed", ResolverTally: kb.ResolverTally{Requests: 4, FullText: 4}}}},
	} {
		got := q(tc.by)
		if diff := cmp.Diff(tc.want, got.Rows); diff != "" {
			t.Errorf("by %s (-want +got):\n%s", tc.by, diff)
		}
		if got.Totals != totals {
			t.Errorf("by %s: totals %+v, want %+v", tc.by, got.Totals, totals)
		}
	}
}

func testUnmetDemand(t *testing.T, s Store) {
	ctx := context.Background()
	unmet := func(cust string, m kb.Month, title, id string) kb.UnmetKey {
		return kb.UnmetKey{CustomerID: cust, Month: m, Title: title, ID: id}
	}
	addTwice(t, s, kb.ResolverCounts{Unmet: map[kb.UnmetKey]int64{
		unmet("c1", "2024-01", "Journal of Nothing", "1234-5679"): 3,
		unmet("c1", "2024-02", "Journal of Nothing", "1234-5679"): 2,
		unmet("c1", "2024-02", "A Rare Book", "9780306406157"):    4,
		unmet("c1", "2024-03", "Zeta Letters", ""):                4,
		unmet("c1", "2024-03", "", "0000-0019"):                   1,
		unmet("c1", "2024-06", "Journal of Nothing", "1234-5679"): 50, // after the range
		unmet("c2", "2024-02", "Somebody Else's", ""):             9,
	}})
	all := []kb.UnmetDemand{
		{Title: "Journal of Nothing", ID: "1234-5679", Requests: 10, LastMonth: "2024-02"},
		{Title: "A Rare Book", ID: "9780306406157", Requests: 8, LastMonth: "2024-02"},
		{Title: "Zeta Letters", Requests: 8, LastMonth: "2024-03"},
		{ID: "0000-0019", Requests: 2, LastMonth: "2024-03"},
	}
	for _, tc := range []struct {
		page kb.Page
		want []kb.UnmetDemand
	}{
		{kb.Page{}, all}, // every entry
		{kb.Page{Count: 10, Number: 1}, all},
		{kb.Page{Count: 2, Number: 1}, all[:2]},
		{kb.Page{Count: 2, Number: 2}, all[2:]},
		{kb.Page{Count: 3, Number: 2}, all[3:]},
		{kb.Page{Count: 2, Number: 3}, []kb.UnmetDemand{}},
	} {
		l := must[kb.UnmetList](t)(s.UnmetDemand(ctx, "c1", kb.UnmetQuery{From: "2024-01", To: "2024-03", Page: tc.page}))
		if l.Total != len(all) {
			t.Errorf("page %+v: total %d, want %d", tc.page, l.Total, len(all))
		}
		if diff := cmp.Diff(tc.want, l.Items); diff != "" {
			t.Errorf("page %+v (-want +got):\n%s", tc.page, diff)
		}
	}
	l := must[kb.UnmetList](t)(s.UnmetDemand(ctx, "c1", kb.UnmetQuery{From: "2024-02", To: "2024-06"}))
	want := []kb.UnmetDemand{
		{Title: "Journal of Nothing", ID: "1234-5679", Requests: 104, LastMonth: "2024-06"},
		{Title: "A Rare Book", ID: "9780306406157", Requests: 8, LastMonth: "2024-02"},
		{Title: "Zeta Letters", Requests: 8, LastMonth: "2024-03"},
		{ID: "0000-0019", Requests: 2, LastMonth: "2024-03"},
	}
	if diff := cmp.Diff(want, l.Items); diff != "" || l.Total != 4 {
		t.Errorf("February to June (total %d; -want +got):\n%s", l.Total, diff)
	}
	l = must[kb.UnmetList](t)(s.UnmetDemand(ctx, "c2", kb.UnmetQuery{From: "2024-01", To: "2024-03"}))
	if want := []kb.UnmetDemand{{Title: "Somebody Else's", Requests: 18, LastMonth: "2024-02"}}; !cmp.Equal(want, l.Items) {
		t.Errorf("c2: %+v, want %+v", l.Items, want)
	}
}

// testResolverCountsConcurrent adds overlapping counts of many keys (more
// than one statement's worth) from several writers at once, as servers
// over one database flush theirs: every count arrives, none twice, and no
// writer fails (on PostgreSQL: no deadlock between them).
func testResolverCountsConcurrent(t *testing.T, s Store) {
	ctx := context.Background()
	const writers, rounds, sources = 4, 3, 450
	counts := func(w int) kb.ResolverCounts {
		c := kb.ResolverCounts{Requests: map[kb.ResolverRequestKey]int64{}, Unmet: map[kb.UnmetKey]int64{}}
		for i := range sources {
			// Every writer counts the same keys, each starting elsewhere
			// in the map's order.
			src := fmt.Sprintf("source %03d", (i+w*97)%sources)
			c.Requests[kb.ResolverRequestKey{CustomerID: "c3", Month: "2025-07", Source: src}] = 1
			c.Unmet[kb.UnmetKey{CustomerID: "c3", Month: "2025-07", Title: src}] = 2
		}
		return c
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*rounds)
	for w := range writers {
		wg.Go(func() {
			for range rounds {
				if err := s.AddResolverCounts(ctx, counts(w)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("AddResolverCounts: %v", err)
	}
	st := must[kb.ResolverStats](t)(s.ResolverStats(ctx, "c3", kb.ResolverStatsQuery{By: kb.StatsBySource, From: "2025-07", To: "2025-07"}))
	if len(st.Rows) != sources || st.Totals.Requests != writers*rounds*sources {
		t.Fatalf("%d sources with %d requests in all; want %d with %d", len(st.Rows), st.Totals.Requests, sources, writers*rounds*sources)
	}
	for _, r := range st.Rows {
		if r.Requests != writers*rounds {
			t.Errorf("source %q: %d requests, want %d", r.Source, r.Requests, writers*rounds)
			break
		}
	}
	l := must[kb.UnmetList](t)(s.UnmetDemand(ctx, "c3", kb.UnmetQuery{From: "2025-07", To: "2025-07", Page: kb.Page{Count: 1, Number: 1}}))
	if l.Total != sources || len(l.Items) != 1 || l.Items[0].Requests != 2*writers*rounds || l.Items[0].Title != "source 000" {
		t.Errorf("unmet demand: %+v, want %d entries, the first source 000 with %d requests", l, sources, 2*writers*rounds)
	}
}
