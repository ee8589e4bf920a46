package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file builds the generated knowledge base of the resolver's
// property test (resolver.go) through the store's own write APIs: KBART
// imports, custom packages and titles, and the customers' holdings.

// rgTitle is a generated title: what its KBART rows say of it. Its
// publisher is unique, which finds the title again among the store's.
type rgTitle struct {
	name, publisher string
	serial          bool
	// print and online are the canonical ISSN (1234-5679) or ISBN-13 of
	// each manifestation; "" when it has none. bad marks an identifier
	// whose check digit is wrong (as real KBART files have).
	print, online string
	bad           bool
	providerID    string
	firstYear     int // the year of volume 1
}

// rgRow is one generated KBART row of a title in a package, its fields as
// written.
type rgRow struct {
	t                           *rgTitle
	name                        string // the title's name as this row writes it
	print, online               string // the identifiers as written
	first, vol1, iss1           string
	last, vol2, iss2            string
	url, embargo, providerField string
}

// kbart returns the row as an import row.
func (r rgRow) kbart(line int) kb.ImportRow {
	var v [kb.KBARTFieldCount]string
	v[0], v[1], v[2] = r.name, r.print, r.online
	v[3], v[4], v[5], v[6], v[7], v[8] = r.first, r.vol1, r.iss1, r.last, r.vol2, r.iss2
	v[9], v[11], v[12], v[15] = r.url, r.providerField, r.embargo, r.t.publisher
	v[16] = "serial"
	if !r.t.serial {
		v[16] = "monograph"
	}
	return kb.ImportRow{Line: line, KBART: v}
}

// rgPackage is a generated managed package.
type rgPackage struct {
	vendor, name string
	vendorID, id int64
	rows         []rgRow
}

// rgKB is the generated knowledge base: its titles, managed packages and
// the customers' custom packages.
type rgKB struct {
	r        *rand.Rand
	titles   []*rgTitle
	packages []*rgPackage
	// custom lists the custom packages of each customer.
	custom map[string][]int64
	// vendor is each customer's own vendor.
	vendor map[string]int64
	custs  []string
	nextID int
}

// Words of the generated titles' names; some carry accents, which the
// citations drop or keep.
var rgWords = []string{"Journal", "Annals", "Review", "Studies", "Letters", "Études", "Revista", "Zeitschrift", "Quarterly",
	"Medicine", "Physics", "Économie", "Software", "Zoology", "Ökologie", "Língua", "History", "Chemistry", "Applied", "Modern",
	"International", "Nordic", "Science", "Theory", "Practice"}

// name returns a new title name of two to four words.
func (g *rgKB) name() string {
	n := 2 + g.r.IntN(3)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = rgWords[g.r.IntN(len(rgWords))]
	}
	if g.r.IntN(3) == 0 {
		ws = append(ws[:1], append([]string{"of"}, ws[1:]...)...)
	}
	return strings.Join(ws, " ")
}

// issn returns a new valid ISSN, canonical.
func (g *rgKB) issn() string {
	g.nextID++
	d := fmt.Sprintf("%07d", 1000000+g.nextID*7919%8999999)
	sum := 0
	for i := range 7 {
		sum += int(d[i]-'0') * (8 - i)
	}
	c := (11 - sum%11) % 11
	check := strconv.Itoa(c)
	if c == 10 {
		check = "X"
	}
	return d[:4] + "-" + d[4:] + check
}

// isbn returns a new valid ISBN-13, canonical (13 digits); prefix 979
// when isbn979 (such an ISBN has no ISBN-10).
func (g *rgKB) isbn(isbn979 bool) string {
	g.nextID++
	prefix := "978"
	if isbn979 {
		prefix = "979"
	}
	d := prefix + fmt.Sprintf("%09d", 100000000+g.nextID*104729%899999999)
	return d + strconv.Itoa(isbn13CheckDigit(d))
}

func isbn13CheckDigit(d12 string) int {
	sum := 0
	for i := range 12 {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += int(d12[i]-'0') * w
	}
	return (10 - sum%10) % 10
}

// isbn10Of returns the ISBN-10 of a 978 ISBN-13, "" for a 979 one.
func isbn10Of(isbn13 string) string {
	if !strings.HasPrefix(isbn13, "978") {
		return ""
	}
	d := isbn13[3:12]
	sum := 0
	for i := range 9 {
		sum += int(d[i]-'0') * (10 - i)
	}
	c := (11 - sum%11) % 11
	if c == 10 {
		return d + "X"
	}
	return d + strconv.Itoa(c)
}

// spoil returns an identifier whose last character is another, so that
// its check digit fails.
func spoil(id string) string {
	last := id[len(id)-1]
	n := byte('0')
	if last == '0' {
		n = '1'
	}
	return id[:len(id)-1] + string(n)
}

// newTitle makes a generated title. Some titles share a name (the
// resolver tells them apart by identifier, or returns them all for a
// title).
func (g *rgKB) newTitle() *rgTitle {
	t := &rgTitle{serial: g.r.IntN(10) < 7, publisher: fmt.Sprintf("Publisher %03d", len(g.titles))}
	if len(g.titles) > 10 && g.r.IntN(8) == 0 {
		t.name = g.titles[g.r.IntN(len(g.titles))].name // a namesake
	} else {
		t.name = g.name()
	}
	t.firstYear = 1900 + g.r.IntN(100)
	if g.r.IntN(3) == 0 {
		t.providerID = fmt.Sprintf("T%04d", len(g.titles))
	}
	switch k := g.r.IntN(20); {
	case k == 0: // no identifier at all
	case t.serial:
		if k < 16 {
			t.print = g.issn()
		}
		if k > 8 {
			t.online = g.issn()
		}
		if t.print == "" && t.online == "" {
			t.online = g.issn()
		}
	default:
		if k < 15 {
			t.print = g.isbn(false)
		}
		if k > 10 {
			t.online = g.isbn(k == 19)
		}
		if t.print == "" && t.online == "" {
			t.print = g.isbn(false)
		}
	}
	if g.r.IntN(30) == 0 && (t.print != "" || t.online != "") {
		t.bad = true
		if t.print != "" {
			t.print = spoil(t.print)
		} else {
			t.online = spoil(t.online)
		}
	}
	g.titles = append(g.titles, t)
	return t
}

// writeISSN writes an ISSN in one of the forms sources use: with or
// without its hyphen, a lower-case x, a space.
func writeISSN(r *rand.Rand, issn string) string {
	switch r.IntN(6) {
	case 0, 1:
		return issn
	case 2:
		return strings.ToLower(issn)
	case 3:
		return strings.Replace(issn, "-", "", 1)
	case 4:
		return strings.ToLower(strings.Replace(issn, "-", "", 1))
	}
	return strings.Replace(issn, "-", " ", 1)
}

// writeISBN writes an ISBN-13 as an ISBN-13 or, when it has one, an
// ISBN-10, with or without hyphens, an ISBN-10's X in either case.
func writeISBN(r *rand.Rand, isbn13 string) string {
	s := isbn13
	if ten := isbn10Of(isbn13); ten != "" && r.IntN(2) == 0 {
		s = ten
		if r.IntN(3) == 0 {
			s = strings.ToLower(s)
		}
	}
	switch r.IntN(3) {
	case 0:
		return s
	case 1: // hyphens where a publisher puts them (roughly)
		if len(s) == 13 {
			return s[:3] + "-" + s[3:4] + "-" + s[4:7] + "-" + s[7:12] + "-" + s[12:]
		}
		return s[:1] + "-" + s[1:4] + "-" + s[4:9] + "-" + s[9:]
	}
	var b strings.Builder
	for i, c := range s { // hyphens anywhere
		if i > 0 && r.IntN(4) == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// writeIdent writes a title's identifier in some form.
func (g *rgKB) writeIdent(t *rgTitle, id string) string {
	if id == "" {
		return ""
	}
	if t.bad { // a spoiled identifier is written as it is
		return id
	}
	if t.serial {
		return writeISSN(g.r, id)
	}
	return writeISBN(g.r, id)
}

// date writes a date of year y in one of KBART's precisions: yyyy,
// yyyy-mm or yyyy-mm-dd (a partial begin date means its first day, a
// partial end date its last).
func (g *rgKB) date(y int) string {
	switch g.r.IntN(3) {
	case 0:
		return strconv.Itoa(y)
	case 1:
		return fmt.Sprintf("%04d-%02d", y, 1+g.r.IntN(12))
	}
	return fmt.Sprintf("%04d-%02d-%02d", y, 1+g.r.IntN(12), 1+g.r.IntN(28))
}

// volume writes a volume or issue number as KBART files do: mostly the
// number, sometimes with leading zeros or words after it.
func (g *rgKB) volume(n int) string {
	switch g.r.IntN(12) {
	case 0:
		return fmt.Sprintf("%03d", n)
	case 1:
		return strconv.Itoa(n) + " Suppl"
	}
	return strconv.Itoa(n)
}

// rows makes the KBART rows of a title in a package (pkg numbers the
// package for its addresses): none to two coverage ranges with dates
// and, often, volumes; sometimes an embargo; mostly an address.
func (g *rgKB) rows(t *rgTitle, pkg int) []rgRow {
	base := rgRow{t: t, name: t.name, print: g.writeIdent(t, t.print), online: g.writeIdent(t, t.online), providerField: t.providerID}
	if g.r.IntN(12) != 0 {
		base.url = fmt.Sprintf("https://p%d.example/%s", pkg, strings.ReplaceAll(t.publisher, " ", ""))
	}
	switch k := g.r.IntN(40); {
	case k < 8:
		base.embargo = fmt.Sprintf("P%dY", 1+g.r.IntN(3))
	case k < 14:
		base.embargo = fmt.Sprintf("P%dM", 1+g.r.IntN(18))
	case k < 17:
		base.embargo = fmt.Sprintf("P%dD", 1+g.r.IntN(400))
	case k < 19:
		base.embargo = fmt.Sprintf("p%dw", 1+g.r.IntN(60))
	case k < 20:
		base.embargo = "R5Y" // KBART's "only the last 5 years": no moving wall
	case k < 21:
		base.embargo = "R10Y;P6M"
	}
	if !t.serial && g.r.IntN(2) == 0 {
		return []rgRow{base} // a book without dates
	}
	if g.r.IntN(15) == 0 {
		return []rgRow{base} // a serial without coverage dates
	}
	withVolumes := t.serial && g.r.IntN(10) < 7
	rng := func(y1, y2 int, open bool) rgRow {
		r := base
		r.first = g.date(y1)
		if !open {
			r.last = g.date(y2)
		}
		if withVolumes {
			r.vol1 = g.volume(y1 - t.firstYear + 1)
			if g.r.IntN(3) == 0 {
				r.iss1 = g.volume(1 + g.r.IntN(6))
			}
			if !open && g.r.IntN(8) != 0 {
				r.vol2 = g.volume(y2 - t.firstYear + 1)
				if g.r.IntN(3) == 0 {
					r.iss2 = g.volume(1 + g.r.IntN(6))
				}
			}
		}
		return r
	}
	y1 := max(t.firstYear, 1950+g.r.IntN(70))
	if g.r.IntN(4) != 0 || y1 > 2015 {
		open := g.r.IntN(2) == 0
		return []rgRow{rng(y1, min(2025, y1+g.r.IntN(20)), open)}
	}
	y2 := y1 + g.r.IntN(8)
	y3 := y2 + 2 + g.r.IntN(6)
	return []rgRow{rng(y1, y2, false), rng(y3, min(2025, y3+g.r.IntN(10)), g.r.IntN(2) == 0)}
}

// importPackage imports p's rows into the store.
func (g *rgKB) importPackage(t *testing.T, st kb.Store, p *rgPackage) {
	t.Helper()
	res, err := st.ImportPackage(context.Background(), kb.PackageSpec{VendorName: p.vendor, PackageName: p.name, ContentType: kb.ContentEJournal},
		RowsOf(len(p.rows), func(i int) kb.ImportRow { return p.rows[i].kbart(i + 2) }))
	if err != nil {
		t.Fatalf("import %s: %v", p.name, err)
	}
	p.vendorID, p.id = res.VendorID, res.PackageID
}

// buildResolverKB fills an empty store with the generated knowledge base:
// managed packages imported from KBART rows, two customers with their
// own custom packages and titles, and each customer's holdings.
func buildResolverKB(t *testing.T, st kb.Store, seed uint64) *rgKB {
	t.Helper()
	ctx := context.Background()
	g := &rgKB{r: rand.New(rand.NewPCG(seed, 36)), custom: map[string][]int64{}, vendor: map[string]int64{}, custs: []string{"c1", "c2"}}
	for range 160 {
		g.newTitle()
	}
	vendors := []string{"Vendor Alpha", "Vendor Beta", "vendor gamma"}
	for i := range 9 {
		p := &rgPackage{vendor: vendors[i%len(vendors)], name: fmt.Sprintf("Package %c%d", 'A'+rune(g.r.IntN(3)), i)}
		for _, j := range g.r.Perm(len(g.titles))[:20+g.r.IntN(30)] {
			p.rows = append(p.rows, g.rows(g.titles[j], i)...)
		}
		g.packages = append(g.packages, p)
		g.importPackage(t, st, p)
	}
	for _, c := range g.custs {
		cust, err := st.AddCustomer(ctx, c, "Customer "+c)
		if err != nil {
			t.Fatal(err)
		}
		g.vendor[c] = cust.VendorID
		g.holdings(t, st, c)
		g.customPackages(t, st, c)
	}
	return g
}

// holdings sets the customer's holdings of the managed packages through
// the holdings writer: packages unselected, selected whole, selected
// whole and hidden, or selected title by title; titles deselected,
// selected one by one, hidden, with custom coverage and embargoes.
func (g *rgKB) holdings(t *testing.T, st kb.Store, cust string) {
	t.Helper()
	ctx := context.Background()
	no := false
	for _, p := range g.packages {
		whole := false
		switch k := g.r.IntN(20); {
		case k < 5: // not selected; some titles may be selected one by one
		case k < 13:
			whole = true
		case k < 15:
			whole = true
			if err := st.UpdatePackage(ctx, cust, p.vendorID, p.id, kb.PackageUpdate{Selected: true, Hidden: true}); err != nil {
				t.Fatalf("hide package %s: %v", p.name, err)
			}
		default:
			if err := st.UpdatePackage(ctx, cust, p.vendorID, p.id, kb.PackageUpdate{Selected: true, FullPackage: &no}); err != nil {
				t.Fatalf("select package %s title by title: %v", p.name, err)
			}
		}
		if whole {
			if p2, _ := st.Package(ctx, cust, p.vendorID, p.id); !p2.IsSelected {
				if err := st.UpdatePackage(ctx, cust, p.vendorID, p.id, kb.PackageUpdate{Selected: true}); err != nil {
					t.Fatalf("select package %s: %v", p.name, err)
				}
			}
		}
		for _, ti := range rpTitleIDs(t, st, cust, p.vendorID, p.id) {
			var u kb.ResourceUpdate
			switch k := g.r.IntN(20); {
			case whole && k < 2:
				u.Selected = false
			case whole || k < 8:
				u.Selected = true
				u.Hidden = g.r.IntN(10) == 0
				if g.r.IntN(5) == 0 {
					u.CustomCoverage = g.customCoverage()
				}
				if g.r.IntN(6) == 0 {
					u.CustomEmbargo = g.customEmbargo()
				}
				if whole && !u.Hidden && u.CustomCoverage == nil && u.CustomEmbargo.Value == 0 {
					continue // selected with its package, as it is
				}
			default:
				continue
			}
			if err := st.UpdateResource(ctx, cust, p.vendorID, p.id, ti, u); err != nil {
				t.Fatalf("update resource %d/%d: %v", p.id, ti, err)
			}
		}
	}
}

// customCoverage returns one or two custom coverage ranges, newest first.
func (g *rgKB) customCoverage() []kb.Coverage {
	day := func(y int) string { return fmt.Sprintf("%04d-%02d-%02d", y, 1+g.r.IntN(12), 1+g.r.IntN(28)) }
	y1 := 1960 + g.r.IntN(60)
	newer := kb.Coverage{Begin: day(y1)}
	if g.r.IntN(2) == 0 {
		newer.End = day(min(2025, y1+1+g.r.IntN(10)))
		if newer.End < newer.Begin {
			newer.End = ""
		}
	}
	if g.r.IntN(3) != 0 || y1 < 1965 {
		return []kb.Coverage{newer}
	}
	y0 := y1 - 4 - g.r.IntN(20)
	return []kb.Coverage{newer, {Begin: day(y0), End: day(y0 + 1 + g.r.IntN(2))}}
}

// customEmbargo returns a custom embargo of any unit.
func (g *rgKB) customEmbargo() kb.Embargo {
	units := []kb.EmbargoUnit{kb.EmbargoDays, kb.EmbargoWeeks, kb.EmbargoMonths, kb.EmbargoYears}
	u := units[g.r.IntN(len(units))]
	n := map[kb.EmbargoUnit]int{kb.EmbargoDays: 400, kb.EmbargoWeeks: 80, kb.EmbargoMonths: 30, kb.EmbargoYears: 4}[u]
	return kb.Embargo{Unit: u, Value: 1 + g.r.IntN(n)}
}

// customPackages creates the customer's custom packages (one of them
// hidden) and their custom titles: names and identifiers of their own or
// those of managed titles, custom coverage and embargoes, some hidden,
// some without an address; and adds a few managed titles to them.
func (g *rgKB) customPackages(t *testing.T, st kb.Store, cust string) {
	t.Helper()
	ctx := context.Background()
	vendor := g.vendor[cust]
	for i := range 2 {
		id, err := st.CreateCustomPackage(ctx, cust, vendor, kb.CustomPackage{Name: fmt.Sprintf("Local %s %d", cust, i), ContentType: kb.ContentEJournal})
		if err != nil {
			t.Fatal(err)
		}
		g.custom[cust] = append(g.custom[cust], id)
		if i == 1 {
			if err := st.UpdatePackage(ctx, cust, vendor, id, kb.PackageUpdate{Selected: true, Hidden: true}); err != nil {
				t.Fatalf("hide custom package: %v", err)
			}
		}
		used := map[string]bool{}
		for j := range 8 + g.r.IntN(6) {
			like := g.titles[g.r.IntN(len(g.titles))]
			f := kb.TitleFields{Name: fmt.Sprintf("Local Title %s %d %d", cust, i, j), PubType: kb.ResourceJournal,
				Publisher: fmt.Sprintf("Custom %s %d %d", cust, i, j)}
			if g.r.IntN(3) == 0 && !used[kb.Fold(like.name)] {
				f.Name = like.name // a managed title's name
			}
			used[kb.Fold(f.Name)] = true
			if g.r.IntN(8) != 0 {
				f.URL = fmt.Sprintf("https://local.example/%s/%d/%d", cust, i, j)
			}
			switch k := g.r.IntN(6); {
			case k < 2 && like.serial && !like.bad && like.print != "": // a managed title's ISSN
				f.Identifiers = []kb.Identifier{{ID: writeISSN(g.r, like.print), Type: kb.IdentISSN, Subtype: kb.SubtypePrint}}
			case k < 4:
				f.Identifiers = []kb.Identifier{{ID: writeISSN(g.r, g.issn()), Type: kb.IdentISSN, Subtype: kb.SubtypeOnline}}
			case k < 5:
				f.PubType = kb.ResourceBook
				f.Identifiers = []kb.Identifier{{ID: writeISBN(g.r, g.isbn(false)), Type: kb.IdentISBN, Subtype: kb.SubtypePrint}}
			}
			ct := kb.CustomTitle{TitleFields: f}
			if g.r.IntN(3) != 0 {
				ct.CustomCoverage = g.customCoverage()
			}
			if g.r.IntN(5) == 0 {
				ct.CustomEmbargo = g.customEmbargo()
			}
			tid, err := st.CreateCustomTitle(ctx, cust, vendor, id, ct)
			if err != nil {
				t.Fatalf("create custom title %q: %v", f.Name, err)
			}
			if g.r.IntN(8) == 0 {
				// The custom title hidden: its state is written whole.
				if err := st.UpdateResource(ctx, cust, vendor, id, tid, kb.ResourceUpdate{Selected: true, Hidden: true,
					CustomCoverage: ct.CustomCoverage, CustomEmbargo: ct.CustomEmbargo}); err != nil {
					t.Fatalf("hide custom title: %v", err)
				}
			}
		}
		// A few managed titles added to the custom package, with an
		// address of the customer's.
		p := g.packages[g.r.IntN(len(g.packages))]
		ids := rpTitleIDs(t, st, cust, p.vendorID, p.id)
		for k := range 2 {
			ti := ids[g.r.IntN(len(ids))]
			if err := st.UpdateResource(ctx, cust, vendor, id, ti, kb.ResourceUpdate{Selected: true,
				Title: &kb.TitleFields{URL: fmt.Sprintf("https://local.example/%s/%d/m%d", cust, i, k)}}); err != nil {
				t.Fatalf("add managed title %d to custom package %d: %v", ti, id, err)
			}
		}
	}
}

// rpTitleIDs lists the ids of the titles of a package, as the
// customer reads them.
func rpTitleIDs(t *testing.T, st kb.Store, cust string, vendorID, packageID int64) []int64 {
	t.Helper()
	var ids []int64
	for _, ti := range rpTitles(t, st, cust, vendorID, packageID) {
		ids = append(ids, ti.ID)
	}
	return ids
}

// rpTitles lists the titles of a package with their resource in it,
// as the customer reads them (the holdings reader, a page at a time).
func rpTitles(t *testing.T, st kb.Store, cust string, vendorID, packageID int64) []kb.Title {
	t.Helper()
	var out []kb.Title
	for n := 1; ; n++ {
		l, err := st.Titles(context.Background(), cust, kb.TitleQuery{VendorID: vendorID, PackageID: packageID, Page: kb.Page{Count: 100, Number: n}})
		if err != nil {
			t.Fatalf("titles of package %d: %v", packageID, err)
		}
		out = append(out, l.Titles...)
		if len(l.Titles) < 100 || len(out) >= l.Total {
			return out
		}
	}
}

// reimport changes a package's KBART rows as a provider's next file
// does (titles renamed, coverage and embargoes changed, titles dropped
// and new ones added) and imports it again.
func (g *rgKB) reimport(t *testing.T, st kb.Store, p *rgPackage, pkgNo int) {
	t.Helper()
	byTitle := map[*rgTitle][]rgRow{}
	var order []*rgTitle
	for _, r := range p.rows {
		if _, ok := byTitle[r.t]; !ok {
			order = append(order, r.t)
		}
		byTitle[r.t] = append(byTitle[r.t], r)
	}
	var rows []rgRow
	for _, ti := range order {
		rs := byTitle[ti]
		switch k := g.r.IntN(10); {
		case k == 0:
			continue // no longer in the package
		case k < 3:
			ti.name = g.name()
			for i := range rs {
				rs[i].name = ti.name
			}
		case k < 6:
			rs = g.rows(ti, pkgNo)
		}
		rows = append(rows, rs...)
	}
	for range 5 {
		rows = append(rows, g.rows(g.newTitle(), pkgNo)...)
	}
	p.rows = rows
	g.importPackage(t, st, p)
}
