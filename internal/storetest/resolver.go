package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolver"
)

// The resolver's property test: a generated knowledge base (resolver_kb.go)
// and thousands of generated citations, each resolved by the resolver
// (package resolver, over the search service and the store) and by a slow
// reference of the rules written plainly (resolver_ref.go); the two must
// give the same titles and packages, in the same order, with the same
// reasons and links. Then two packages are imported again (titles renamed,
// coverage changed) and the two must still agree.

// Resolver test sizes.
const (
	resolverSeed      = 36
	resolverCitations = 3000 // before the re-import
	resolverAfter     = 1000 // after it
	resolverShown     = 8    // differences shown in full
)

// resolverDays are the resolver's "today"s: an ordinary day, the last day
// of a month that follows a shorter one, and a leap day.
var resolverDays = []time.Time{
	time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC),
	time.Date(2025, 3, 31, 0, 0, 0, 0, time.UTC),
	time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
}

func testResolver(t *testing.T, s Store) {
	g := buildResolverKB(t, s, resolverSeed)
	r := rand.New(rand.NewPCG(resolverSeed, 2004))
	st := &resolverStats{}
	u := readUniverse(t, s, g)
	checkResolver(t, s, g, u, r, resolverCitations, st)
	if t.Failed() {
		return
	}
	g.reimport(t, s, g.packages[0], 0)
	g.reimport(t, s, g.packages[3], 3)
	before := u
	u = readUniverse(t, s, g)
	// The re-imported packages' resources, drawn from more often.
	renamed, changed := 0, 0
	focus := map[int64]bool{g.packages[0].id: true, g.packages[3].id: true}
	u.focus = map[string][]rpResource{}
	for _, c := range g.custs {
		old := map[[2]int64]rpResource{}
		for _, x := range before.of[c] {
			old[[2]int64{x.title.ID, x.res.PackageID}] = x
		}
		for _, x := range u.of[c] {
			if !focus[x.res.PackageID] {
				continue
			}
			u.focus[c] = append(u.focus[c], x)
			if o, ok := old[[2]int64{x.title.ID, x.res.PackageID}]; ok {
				if o.title.Name != x.title.Name {
					renamed++
				}
				if !cmp.Equal(o.res.ManagedCoverage, x.res.ManagedCoverage) || o.res.ManagedEmbargo != x.res.ManagedEmbargo {
					changed++
				}
			}
		}
	}
	if renamed == 0 || changed == 0 {
		t.Fatalf("the re-import renamed %d titles and changed the coverage of %d: nothing to catch up with", renamed, changed)
	}
	checkResolver(t, s, g, u, r, resolverAfter, st)
	st.check(t)
}

// checkResolver draws n citations and compares the resolver's answer to
// each with the reference's.
func checkResolver(t *testing.T, s Store, g *rgKB, u *rpUniverse, r *rand.Rand, n int, st *resolverStats) {
	t.Helper()
	ctx := context.Background()
	rs, ok := Raw(s).(kb.ResolverStore)
	if !ok {
		t.Fatalf("%T does not read resources' KBART rows (kb.ResolverStore)", Raw(s))
	}
	services := map[time.Time]*resolver.Service{}
	for _, d := range resolverDays {
		services[d] = resolver.New(SearchOf(ctx, s), rs, nil).WithClock(func() time.Time { return d.Add(13 * time.Hour) })
	}
	shown, differ := 0, 0
	for i := range n {
		cust := g.custs[r.IntN(len(g.custs))]
		c := drawCitation(g, r, u, cust, resolverDays[r.IntN(len(resolverDays))])
		parsed, err := kb.ParseCitation(c.values, c.today)
		if err != nil {
			t.Fatalf("citation %d (%s): %v", i, c.values.Encode(), err)
		}
		res, err := services[c.today].Resolve(ctx, cust, parsed)
		if err != nil {
			t.Fatalf("citation %d (%s): resolve: %v", i, c.values.Encode(), err)
		}
		want := refResolve(u, cust, c)
		got := rpAnswer{MatchedBy: res.MatchedBy}
		for _, x := range res.Results {
			got.Results = append(got.Results, rpResult{TitleID: x.Title.ID, PackageID: x.Resource.PackageID, Reason: x.Reason, Links: x.Links})
		}
		st.count(c, want)
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(rpAnswer{}), cmpopts.EquateEmpty()); diff != "" {
			differ++
			if shown < resolverShown {
				shown++
				t.Errorf("citation %d for %s on %s disagrees (-reference +resolver):\n%s\n%s", i, cust, c.today.Format(time.DateOnly),
					diff, describeCitation(u, cust, c, parsed, want, got))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d citations: the resolver and the reference differ", differ, n)
	}
	t.Logf("%d citations resolved, %d differences", n, differ)
}

// describeCitation says what a citation was and which resources the
// reference and the resolver found, with what the reference read of them.
func describeCitation(u *rpUniverse, cust string, c rpCitation, parsed kb.Citation, want, got rpAnswer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  OpenURL: %s\n  read as: %+v\n  meant: date %q volume %d issue %d DOI %q title %q ISSNs %q ISBNs %q\n",
		c.values.Encode(), parsed, c.date, c.volume, c.issue, c.doi, c.title, c.issns, c.isbns)
	seen := map[[2]int64]bool{}
	for _, x := range append(slices.Clone(want.Results), got.Results...) {
		k := [2]int64{x.TitleID, x.PackageID}
		if seen[k] {
			continue
		}
		seen[k] = true
		for _, r := range u.of[cust] {
			if r.title.ID == x.TitleID && r.res.PackageID == x.PackageID {
				fmt.Fprintf(&b, "  resource %d/%d: title %q %q in %q (owner %q): selected %v hidden %v/%v, URL %q, managed %v embargo %v, custom %v embargo %v\n",
					x.PackageID, x.TitleID, r.title.Name, idents(r.title), r.res.PackageName, r.owner, r.res.IsSelected, r.res.Visibility.Hidden,
					r.pkg.Visibility.Hidden, r.res.URL, r.res.ManagedCoverage, r.res.ManagedEmbargo, r.res.CustomCoverage, r.res.CustomEmbargo)
				for _, row := range r.rows {
					fmt.Fprintf(&b, "    KBART row: %q %s..%s vol %q/%q..%q/%q embargo %q\n", row.name, row.first, row.last, row.vol1, row.iss1, row.vol2, row.iss2, row.embargo)
				}
			}
		}
	}
	return b.String()
}

func idents(t kb.Title) []string {
	var out []string
	for _, i := range t.Identifiers {
		out = append(out, i.ID)
	}
	return out
}

// resolverStats counts what the citations exercised, so that a test
// whose citations missed a rule fails instead of passing for nothing.
type resolverStats struct {
	by                          map[string]int
	reasons                     map[kb.Reason]int
	article, volumes, unmatched int
}

func (s *resolverStats) count(c rpCitation, a rpAnswer) {
	if s.by == nil {
		s.by, s.reasons = map[string]int{}, map[kb.Reason]int{}
	}
	s.by[a.MatchedBy]++
	for _, x := range a.Results {
		s.reasons[x.Reason]++
		if len(x.Links) > 1 {
			s.article++
		}
	}
	if c.date == "" && c.volume > 0 && len(a.Results) > 0 {
		s.volumes++
	}
	if len(a.Results) == 0 {
		s.unmatched++
	}
}

// check fails unless every kind of answer occurred.
func (s *resolverStats) check(t *testing.T) {
	t.Helper()
	t.Logf("matched by %v; reasons %v; %d article links, %d by volume, %d without results", s.by, s.reasons, s.article, s.volumes, s.unmatched)
	for _, by := range []string{"issn", "isbn", "title", ""} {
		if s.by[by] < 20 {
			t.Errorf("only %d citations matched by %q", s.by[by], by)
		}
	}
	for _, r := range []kb.Reason{kb.ReasonCovered, kb.ReasonBefore, kb.ReasonAfter, kb.ReasonGap, kb.ReasonEmbargo, kb.ReasonNoURL} {
		if s.reasons[r] < 10 {
			t.Errorf("only %d results of reason %q", s.reasons[r], r)
		}
	}
	if s.article < 20 || s.volumes < 20 {
		t.Errorf("only %d article links and %d citations judged by volume", s.article, s.volumes)
	}
}

// drawCitation makes a citation for the customer: mostly of a resource
// of the knowledge base (the customer's or not), by its identifiers in
// any form and key, or its title written otherwise, with a date or volume
// inside, before, after or between its coverage ranges, in its embargo,
// or none; sometimes of nothing the knowledge base has, or of nothing at
// all.
func drawCitation(g *rgKB, r *rand.Rand, u *rpUniverse, cust string, today time.Time) rpCitation {
	c := rpCitation{values: url.Values{}, today: today}
	all := u.of[cust]
	target := all[r.IntN(len(all))]
	if f := u.focus[cust]; len(f) > 0 && r.IntN(2) == 0 {
		target = f[r.IntN(len(f))]
	}
	issnKeys := []string{"issn", "eissn", "rft.issn", "rft.eissn"}
	isbnKeys := []string{"isbn", "rft.isbn", "eisbn", "rft.eisbn"}
	titleKeys := []string{"title", "jtitle", "btitle", "rft.jtitle", "rft.btitle", "rft.title", "stitle", "rft.stitle"}
	pick := func(keys []string) string { return keys[r.IntN(len(keys))] }
	addISSN := func(s string) {
		c.values.Add(pick(issnKeys), s)
		c.issns = append(c.issns, s)
	}
	addISBN := func(s string) {
		c.values.Add(pick(isbnKeys), s)
		c.isbns = append(c.isbns, s)
	}
	addTitle := func(s string) {
		c.values.Set(pick(titleKeys), s)
		c.title = s
	}
	switch mode := r.IntN(100); {
	case mode < 3: // nothing to match on
	case mode < 6: // identifiers that are none, sometimes a title
		addISSN([]string{"12-34", "ISSN", "1234-56789"}[r.IntN(3)])
		addISBN([]string{"123", "978-1", "0-306-40615-X1"}[r.IntN(3)])
		if r.IntN(2) == 0 {
			addTitle(titleVariant(r, target.title.Name))
		}
	case mode < 14: // identifiers the knowledge base does not have
		if r.IntN(2) == 0 {
			addISSN(writeISSN(r, g.issn()))
		} else {
			addISBN(writeISBN(r, g.isbn(false)))
		}
		if r.IntN(2) == 0 {
			addTitle(titleVariant(r, target.title.Name))
		}
	case mode < 35 || len(target.title.Identifiers) == 0: // the title only
		addTitle(titleVariant(r, target.title.Name))
	default: // the title's identifiers, sometimes with a title
		ids := slices.Clone(target.title.Identifiers)
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for i, id := range ids {
			if i > 0 && r.IntN(3) == 0 {
				continue
			}
			if s, ok := refISSN(id.ID); ok {
				if r.IntN(25) == 0 { // in an ISBN's key, where it is none
					addISBN(s)
				} else {
					addISSN(writeISSN(r, s[:4]+"-"+s[4:]))
				}
			} else if s, ok := refISBN(id.ID); ok {
				if len(s) == 13 {
					s = writeISBN(r, s)
				}
				addISBN(s)
			}
		}
		if r.IntN(3) == 0 {
			other := all[r.IntN(len(all))]
			addTitle(titleVariant(r, other.title.Name))
		}
	}
	drawWhen(r, &c, target)
	if r.IntN(10) < 4 {
		c.doi = fmt.Sprintf("10.%d/%s", 1000+r.IntN(9000), []string{"abc.2001.15", "(SICI)1097-4636(199707)36:1<1::AID-JBM1>3.0.CO;2-P",
			"j.cell|2009", "S0140-6736(20)30183-5", "x_y-z"}[r.IntN(5)])
		switch r.IntN(4) {
		case 0:
			c.values.Add("id", "doi:"+c.doi)
		case 1:
			c.values.Add("rft_id", "info:doi/"+c.doi)
		case 2:
			c.values.Add("rft_id", "info:doi/"+url.PathEscape(c.doi))
		default:
			c.values.Add("rft_id", "info:pmid/12345")
			c.values.Add("id", "https://doi.org/"+c.doi)
		}
	}
	for k, vs := range map[string][]string{"genre": {"article", "journal", "book", "bookitem"}, "atitle": {"On Tests", all[r.IntN(len(all))].title.Name},
		"aulast": {"Smith", "Ødegård"}, "spage": {"1", "e123"}, "sid": {"EBSCO:MEDLINE", "google"}, "rfr_id": {"info:sid/primo.exlibrisgroup.com"},
		"url_ver": {"Z39.88-2004"}} {
		if r.IntN(3) == 0 {
			c.values.Set(k, vs[r.IntN(len(vs))])
		}
	}
	return c
}

// titleVariant writes a title otherwise: in another case, with its
// accents dropped or others added, with other punctuation; or, now and
// then, as another title.
func titleVariant(r *rand.Rand, name string) string {
	switch r.IntN(9) {
	case 0:
		return strings.ToUpper(name)
	case 1:
		return strings.ToLower(name)
	case 2:
		return strings.NewReplacer("É", "E", "é", "e", "Ö", "O", "ö", "o", "í", "i").Replace(name)
	case 3:
		return strings.NewReplacer("e", "é", "o", "ô").Replace(name)
	case 4:
		return " " + strings.Replace(name, " ", " - ", 1) + ". "
	case 5:
		return strings.ReplaceAll(name, " ", ":")
	case 6:
		return name + " Supplement" // another title
	case 7:
		return "The " + name // another title, unless the name begins so
	}
	return name
}

// drawWhen gives the citation a date, a volume (and issue), both or
// neither, chosen against the target resource's coverage, volumes and
// embargo.
func drawWhen(r *rand.Rand, c *rpCitation, target rpResource) {
	today := c.today
	cov := refCoverage(target)
	switch k := r.IntN(100); {
	case k < 12: // neither
	case k < 17: // a date that is none, or partly one
		s := []struct{ written, meant string }{{"Spring 1999", ""}, {"1999-13", "1999"}, {"1999-02-30", "1999-02"}, {"0999", ""},
			{strconv.Itoa(today.Year() + 2), ""}, {"n.d.", ""}, {"2001-1", "2001"}, {"20010230", "2001-02"}}[r.IntN(8)]
		c.values.Set(pick2(r, "date", "rft.date"), s.written)
		c.date = s.meant
	case k < 72:
		writeDate(r, c, drawDay(r, cov, target, today))
		if r.IntN(5) == 0 {
			drawVolume(r, c, target) // a date and a volume: the date decides
		}
	default:
		drawVolume(r, c, target)
	}
}

func pick2(r *rand.Rand, a, b string) string {
	if r.IntN(2) == 0 {
		return a
	}
	return b
}

// drawDay picks a day against a coverage: inside a range, at or next to
// its ends, before, after or between the ranges, in the embargo or at its
// cutoff, after today, or any day.
func drawDay(r *rand.Rand, cov []kb.Coverage, target rpResource, today time.Time) time.Time {
	between := func(a, b time.Time) time.Time {
		if !b.After(a) {
			return a
		}
		return a.AddDate(0, 0, r.IntN(int(b.Sub(a).Hours()/24)+1))
	}
	var edges []time.Time
	for _, c := range cov {
		b := refDay(c.Begin)
		edges = append(edges, b, b.AddDate(0, 0, -1))
		if c.End != "" {
			e := refDay(c.End)
			edges = append(edges, e, e.AddDate(0, 0, 1))
		}
	}
	if e, ok := refEmbargo(target); ok {
		cut := refCutoff(e, today)
		edges = append(edges, cut, cut.AddDate(0, 0, 1), between(cut, today))
	}
	switch k := r.IntN(10); {
	case k < 3 && len(cov) > 0:
		c := cov[r.IntN(len(cov))]
		end := today
		if c.End != "" {
			end = refDay(c.End)
		}
		return between(refDay(c.Begin), end)
	case k < 7 && len(edges) > 0:
		return edges[r.IntN(len(edges))]
	case k < 8:
		return today.AddDate(0, 0, 1+r.IntN(150))
	}
	return between(time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC), today)
}

// writeDate writes a day, or its month or year, in one of the forms
// OpenURLs carry.
func writeDate(r *rand.Rand, c *rpCitation, d time.Time) {
	var s string
	switch k := r.IntN(8); {
	case k < 3:
		c.date = d.Format(time.DateOnly)
		s = []string{c.date, d.Format("20060102"), c.date + "T10:20:30Z"}[k]
	case k < 5:
		c.date = d.Format("2006-01")
		s = []string{c.date, d.Format("200601")}[k-3]
	default:
		c.date = d.Format("2006")
		s = c.date
	}
	c.values.Set(pick2(r, "date", "rft.date"), s)
	if d.Year() > c.today.Year()+1 {
		c.date = "" // a year after next is impossible: no date
	}
}

// drawVolume gives the citation a volume, and sometimes an issue, inside,
// at the edges of or outside the volumes of the target's KBART rows, in
// one of the forms sources write them.
func drawVolume(r *rand.Rand, c *rpCitation, target rpResource) {
	var edges []int
	for _, row := range target.rows {
		for _, v := range []string{row.vol1, row.vol2} {
			if n := refNumber(v); n > 0 {
				edges = append(edges, n-1, n, n+1)
			}
		}
	}
	vol := 1 + r.IntN(150)
	if len(edges) > 0 && r.IntN(4) != 0 {
		vol = edges[r.IntN(len(edges))]
	}
	issue := 0
	if r.IntN(2) == 0 {
		issue = 1 + r.IntN(7)
	}
	write := func(key string, n int) int {
		switch k := r.IntN(20); {
		case n <= 0 || k == 0:
			c.values.Set(key, []string{"0", "XII", "100001", "-3"}[r.IntN(4)])
			return 0
		case k == 1:
			c.values.Set(key, fmt.Sprintf("%03d", n))
		case k == 2:
			c.values.Set(key, strconv.Itoa(n)+" Suppl")
		default:
			c.values.Set(key, strconv.Itoa(n))
		}
		return n
	}
	c.volume = write(pick2(r, "volume", "rft.volume"), vol)
	if issue > 0 {
		c.issue = write(pick2(r, "issue", "rft.issue"), issue)
	}
}
