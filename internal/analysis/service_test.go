package analysis_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestOverlapLikeReference compares the overlap counts of random pairs
// and triples of packages, and of random packages against the holdings,
// with a slow reference read title by title from the store, over a
// generated knowledge base after random selections and custom coverage,
// then again after a re-import. Both stores (KBSERVER_TEST_STORE).
func TestOverlapLikeReference(t *testing.T) {
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	const n = 600
	if _, err := gen.Generate(ctx, st, gen.Options{Titles: n, Seed: 38, Packages: 12, Vendors: 3}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Customers(ctx, st, 38, []gen.CustomerSpec{{ID: "c1", Holdings: n / 2}}, nil); err != nil {
		t.Fatal(err)
	}
	raw, ok := storetest.Raw(st).(analysis.Store)
	if !ok {
		t.Fatalf("%T does not read held coverage", storetest.Raw(st))
	}
	// One service keeps every package's coverage, one so little that it
	// reads packages again and renews its classes within a request.
	services := []*analysis.Service{analysis.New(raw, st.Search), analysis.NewSmall(raw, st.Search, 100, 6)}
	r := rand.New(rand.NewPCG(38, 37))
	for round := range 2 {
		if round == 1 {
			if _, err := gen.Generate(ctx, st, gen.Options{Titles: n + n/5, Seed: 38, Packages: 12, Vendors: 3}, nil); err != nil {
				t.Fatal(err)
			}
		}
		pkgs := packagesOf(t, st)
		pkgs = append(pkgs, withCustomPackage(t, st, r, pkgs))
		customise(t, st, r, pkgs)
		ref := readReference(t, st, pkgs)
		for _, svc := range services {
			compare(t, svc, ref, r, round, pkgs)
		}
		small := analysis.NewSmall(raw, st.Search, 100, 6)
		concurrently(t, small, ref, pkgs)
		for _, svc := range append(services, small) {
			if err := analysis.CheckKept(svc); err != nil {
				t.Errorf("round %d: %v", round, err)
			}
		}
	}
	if _, err := services[0].Overlap(ctx, "c1", kb.OverlapQuery{PackageIDs: []int64{packagesOf(t, st)[0].ID, 999999}}); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("an unknown package: %v, want not found", err)
	}
}

// compare checks svc's overlaps of random pairs and triples of pkgs, each
// of pkgs against the holdings, and the duplicates, with ref.
func compare(t *testing.T, svc *analysis.Service, ref *reference, r *rand.Rand, round int, pkgs []kb.Package) {
	t.Helper()
	ctx := t.Context()
	{
		for range 12 {
			k := 2 + r.IntN(2)
			ids := make([]int64, 0, k)
			for _, i := range r.Perm(len(pkgs))[:k] {
				ids = append(ids, pkgs[i].ID)
			}
			got, err := svc.Overlap(ctx, "c1", kb.OverlapQuery{PackageIDs: ids})
			if err != nil {
				t.Fatal(err)
			}
			want := ref.overlap(ids)
			if got.SharedCount != want.SharedCount || got.SameCoverageCount != want.SameCoverageCount {
				t.Errorf("round %d, %v: shared %d, same coverage %d; want %d, %d", round, ids, got.SharedCount, got.SameCoverageCount, want.SharedCount, want.SameCoverageCount)
			}
			for i, p := range got.Packages {
				w := want.Packages[i]
				if p.PackageID != w.PackageID || p.TitleCount != w.TitleCount || p.UniqueCount != w.UniqueCount {
					t.Errorf("round %d, %v: package %+v, want %+v", round, ids, p, w)
				}
			}
			for _, l := range []kb.OverlapList{{Kind: kb.ListShared}, {Kind: kb.ListPartial}, {Kind: kb.ListUnique, PackageID: ids[1]}} {
				checkList(t, svc, ref, kb.OverlapQuery{PackageIDs: ids, List: l}, ref.overlapList(ids, l))
			}
		}
		for _, p := range pkgs {
			got, err := svc.Against(ctx, "c1", kb.OverlapQuery{PackageIDs: []int64{p.ID}, AgainstHoldings: true})
			if err != nil {
				t.Fatal(err)
			}
			held, fully := ref.against(p.ID, time.Now())
			if got.HeldCount != len(held) || got.HeldFullyCount != len(fully) || got.Package.TitleCount != len(ref.titles[p.ID]) {
				t.Errorf("round %d: package %d against the holdings: %+v; want %d titles, %d held, %d fully", round, p.ID, got, len(ref.titles[p.ID]), len(held), len(fully))
			}
			q := kb.OverlapQuery{PackageIDs: []int64{p.ID}, AgainstHoldings: true}
			q.List.Kind = kb.ListHeld
			checkList(t, svc, ref, q, held)
			q.List.Kind = kb.ListHeldFully
			checkList(t, svc, ref, q, fully)
			q.List.Kind = kb.ListNotHeld
			checkList(t, svc, ref, q, both(ref.titles[p.ID], held, false))
		}
		dups := ref.duplicates()
		if len(dups) == 0 {
			t.Fatalf("round %d: no title is selected twice: the test checks nothing", round)
		}
		checkPages(t, "duplicates", ref, dups, func(pg kb.Page) ([]int64, int, error) {
			ids, total, _, err := svc.Duplicates(ctx, "c1", pg)
			return ids, total, err
		})
	}
}

// packagesOf lists the knowledge base's packages (c1 sees them all).
func packagesOf(t *testing.T, st storetest.Store) []kb.Package {
	t.Helper()
	l, err := st.Packages(t.Context(), "c1", kb.PackageQuery{Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	var out []kb.Package
	for _, p := range l.Packages {
		if !p.IsCustom {
			out = append(out, p)
		}
	}
	return out
}

// concurrently asks svc, whose bounds are small, for the packages against
// the holdings and for overlaps of pairs from four goroutines at once, so
// that one request's reading and renewal of the classes meets another's
// (run with -race), and checks every answer with ref.
func concurrently(t *testing.T, svc *analysis.Service, ref *reference, pkgs []kb.Package) {
	t.Helper()
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(pkgs))
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range pkgs {
				p := pkgs[(i+g)%len(pkgs)]
				got, err := svc.Against(ctx, "c1", kb.OverlapQuery{PackageIDs: []int64{p.ID}, AgainstHoldings: true})
				if err != nil {
					errs <- err
					return
				}
				if held, fully := ref.against(p.ID, time.Now()); got.HeldCount != len(held) || got.HeldFullyCount != len(fully) {
					errs <- fmt.Errorf("package %d against the holdings at once with others: %d held, %d fully; want %d, %d", p.ID, got.HeldCount, got.HeldFullyCount, len(held), len(fully))
				}
				ids := []int64{p.ID, pkgs[(i+g+1)%len(pkgs)].ID}
				o, err := svc.Overlap(ctx, "c1", kb.OverlapQuery{PackageIDs: ids})
				if err != nil {
					errs <- err
					return
				}
				if want := ref.overlap(ids); o.SharedCount != want.SharedCount || o.SameCoverageCount != want.SameCoverageCount {
					errs <- fmt.Errorf("overlap of %v at once with others: %d shared, %d the same; want %d, %d", ids, o.SharedCount, o.SameCoverageCount, want.SharedCount, want.SameCoverageCount)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// withCustomPackage returns c1's custom package, made the first time,
// with a few more titles of pkgs added to it: the titles a custom package
// adds are the search index's delta, whose slots the analysis reads too.
func withCustomPackage(t *testing.T, st storetest.Store, r *rand.Rand, pkgs []kb.Package) kb.Package {
	t.Helper()
	ctx := t.Context()
	c, err := st.Customer(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	var p kb.Package
	l, err := st.Packages(ctx, "c1", kb.PackageQuery{VendorID: c.VendorID, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Packages) > 0 {
		p = l.Packages[0]
	} else {
		id, err := st.CreateCustomPackage(ctx, "c1", c.VendorID, kb.CustomPackage{Name: "Our own", ContentType: kb.ContentEJournal})
		if err != nil {
			t.Fatal(err)
		}
		p = kb.Package{ID: id, VendorID: c.VendorID, IsCustom: true}
	}
	for range 8 {
		from := pkgs[r.IntN(len(pkgs))]
		tl, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: from.VendorID, PackageID: from.ID, Page: kb.Page{Count: 100, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Titles) == 0 {
			continue
		}
		u := kb.ResourceUpdate{Selected: true}
		if r.IntN(2) == 0 {
			u.CustomEmbargo = kb.Embargo{Unit: kb.EmbargoMonths, Value: 3}
		}
		id := tl.Titles[r.IntN(len(tl.Titles))].ID
		if err := st.UpdateResource(ctx, "c1", p.VendorID, p.ID, id, u); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
			t.Fatalf("add title %d to the custom package: %v", id, err)
		}
	}
	return p
}

// customise gives some of c1's selected titles custom coverage or a custom
// embargo, and selects or deselects a few titles.
func customise(t *testing.T, st storetest.Store, r *rand.Rand, pkgs []kb.Package) {
	t.Helper()
	ctx := t.Context()
	for _, p := range pkgs {
		l, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: p.VendorID, PackageID: p.ID, Page: kb.Page{Count: 100, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for _, ti := range l.Titles {
			if r.IntN(8) != 0 {
				continue
			}
			u := kb.ResourceUpdate{Selected: true}
			switch r.IntN(3) {
			case 0:
				u.CustomCoverage = []kb.Coverage{{Begin: "2001-01-01", End: ""}}
			case 1:
				u.CustomEmbargo = kb.Embargo{Unit: kb.EmbargoMonths, Value: 1 + r.IntN(12)}
			case 2:
				u.Selected = false
			}
			if p.PackageType == kb.PackageComplete {
				continue
			}
			if err := st.UpdateResource(ctx, "c1", p.VendorID, p.ID, ti.ID, u); err != nil {
				t.Fatalf("customise %d/%d: %v", p.ID, ti.ID, err)
			}
		}
	}
}

// reference is the slow reference: every title's resources as the store
// reads them, one title at a time.
type reference struct {
	titles map[int64][]int64              // package → its titles, ascending
	res    map[kb.ResourceKey]kb.Resource // every resource of those titles
	of     map[int64][]kb.Resource        // title → its resources
	names  map[int64]string               // title → its name
}

func readReference(t *testing.T, st storetest.Store, pkgs []kb.Package) *reference {
	t.Helper()
	ctx := context.Background()
	ref := &reference{titles: map[int64][]int64{}, res: map[kb.ResourceKey]kb.Resource{}, of: map[int64][]kb.Resource{}, names: map[int64]string{}}
	for _, p := range pkgs {
		for page := 1; ; page++ {
			l, err := st.Titles(ctx, "c1", kb.TitleQuery{VendorID: p.VendorID, PackageID: p.ID, Page: kb.Page{Count: 100, Number: page}})
			if err != nil {
				t.Fatal(err)
			}
			for _, ti := range l.Titles {
				ref.titles[p.ID] = append(ref.titles[p.ID], ti.ID)
			}
			if len(l.Titles) < 100 {
				break
			}
		}
		slices.Sort(ref.titles[p.ID])
		for _, id := range ref.titles[p.ID] {
			if _, ok := ref.of[id]; ok {
				continue
			}
			ti, err := st.Title(ctx, "c1", id)
			if err != nil {
				t.Fatal(err)
			}
			ref.of[id], ref.names[id] = ti.Resources, ti.Name
			for _, r := range ti.Resources {
				ref.res[kb.ResourceKey{PackageID: r.PackageID, TitleID: id}] = r
			}
		}
	}
	return ref
}

func (ref *reference) overlap(ids []int64) kb.Overlap {
	var o kb.Overlap
	in := func(p, t int64) bool { _, ok := slices.BinarySearch(ref.titles[p], t); return ok }
	for _, p := range ids {
		op := kb.OverlapPackage{PackageID: p, TitleCount: len(ref.titles[p])}
		for _, t := range ref.titles[p] {
			unique := true
			for _, q := range ids {
				unique = unique && (q == p || !in(q, t))
			}
			if unique {
				op.UniqueCount++
			}
		}
		o.Packages = append(o.Packages, op)
	}
	for _, t := range ref.titles[ids[0]] {
		shared := true
		for _, q := range ids[1:] {
			shared = shared && in(q, t)
		}
		if !shared {
			continue
		}
		o.SharedCount++
		first := kb.HeldCoverageOf(ref.res[kb.ResourceKey{PackageID: ids[0], TitleID: t}])
		same := true
		for _, q := range ids[1:] {
			same = same && kb.SameCoverage(first, kb.HeldCoverageOf(ref.res[kb.ResourceKey{PackageID: q, TitleID: t}]))
		}
		if same {
			o.SameCoverageCount++
		}
	}
	return o
}

func (ref *reference) against(p int64, today time.Time) (held, fully []int64) {
	held, fully = []int64{}, []int64{}
	for _, t := range ref.titles[p] {
		var others []kb.HeldCoverage
		for _, r := range ref.of[t] {
			if r.PackageID != p && r.IsSelected {
				others = append(others, kb.HeldCoverageOf(r))
			}
		}
		if len(others) == 0 {
			continue
		}
		held = append(held, t)
		if kb.CoveredBy(kb.HeldCoverageOf(ref.res[kb.ResourceKey{PackageID: p, TitleID: t}]), others, today) {
			fully = append(fully, t)
		}
	}
	return held, fully
}

// duplicates are the titles c1 selects in two packages or more,
// ascending.
func (ref *reference) duplicates() []int64 {
	out := []int64{}
	for id, rs := range ref.of {
		n := 0
		for _, r := range rs {
			if r.IsSelected {
				n++
			}
		}
		if n >= 2 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// overlapList is the reference's list l of the overlap of ids, ascending.
func (ref *reference) overlapList(ids []int64, l kb.OverlapList) []int64 {
	in := func(p, t int64) bool { _, ok := slices.BinarySearch(ref.titles[p], t); return ok }
	out := []int64{}
	switch l.Kind {
	case kb.ListUnique:
		for _, t := range ref.titles[l.PackageID] {
			unique := true
			for _, q := range ids {
				unique = unique && (q == l.PackageID || !in(q, t))
			}
			if unique {
				out = append(out, t)
			}
		}
	case kb.ListShared, kb.ListPartial:
		for _, t := range ref.titles[ids[0]] {
			shared, same := true, true
			first := kb.HeldCoverageOf(ref.res[kb.ResourceKey{PackageID: ids[0], TitleID: t}])
			for _, q := range ids[1:] {
				shared = shared && in(q, t)
				same = same && kb.SameCoverage(first, kb.HeldCoverageOf(ref.res[kb.ResourceKey{PackageID: q, TitleID: t}]))
			}
			if shared && (l.Kind == kb.ListShared || !same) {
				out = append(out, t)
			}
		}
	}
	return out
}

// checkList reads every page of the list q asks for, 7 titles a page, and
// compares them with want (ascending ids): the same titles, in name order
// (folded name, then id).
func checkList(t *testing.T, svc *analysis.Service, ref *reference, q kb.OverlapQuery, want []int64) {
	t.Helper()
	checkPages(t, fmt.Sprintf("list %+v of %v", q.List, q.PackageIDs), ref, want, func(pg kb.Page) ([]int64, int, error) {
		ids, total, _, err := svc.List(t.Context(), "c1", q, pg)
		return ids, total, err
	})
}

// checkPages reads every page of a list, 7 titles a page, and compares
// them with want (ascending ids): the same titles, in name order (folded
// name, then id).
func checkPages(t *testing.T, what string, ref *reference, want []int64, list func(kb.Page) ([]int64, int, error)) {
	t.Helper()
	var got []int64
	for n := 1; ; n++ {
		ids, total, err := list(kb.Page{Count: 7, Number: n})
		if err != nil {
			t.Fatal(err)
		}
		if total != len(want) {
			t.Fatalf("%s: total %d, want %d", what, total, len(want))
		}
		got = append(got, ids...)
		if len(ids) < 7 {
			break
		}
	}
	ordered := slices.Clone(want)
	slices.SortFunc(ordered, func(a, b int64) int {
		if c := strings.Compare(kb.Fold(ref.names[a]), kb.Fold(ref.names[b])); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if !slices.Equal(got, ordered) {
		t.Errorf("%s: %v, want %v", what, got, ordered)
	}
}

// both returns the ids of a that are (in) or are not (!in) in b, both
// ascending.
func both(a, b []int64, in bool) []int64 {
	out := []int64{}
	for _, id := range a {
		if _, ok := slices.BinarySearch(b, id); ok == in {
			out = append(out, id)
		}
	}
	return out
}
