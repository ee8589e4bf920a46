package storetest

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file is the slow reference of the resolver's property test: the
// rules of the link resolver (the doc comments of kb.Judge,
// kb.SortResolved and finder.Service.CitationTitles) written plainly
// over the titles and resources as the store's ordinary reads give them,
// without the search index and without package kb's rules.

// rpResource is one resource of the knowledge base as its reader read it:
// a managed package's as the customer reads it, a custom package's as its
// owner does.
type rpResource struct {
	title kb.Title // its identifiers and name; Resources not used
	res   kb.Resource
	pkg   kb.Package
	owner string  // the owner of a custom package; "" for a managed one
	rows  []rgRow // its KBART rows, as generated; none for a custom package
}

// rpUniverse is every resource of the knowledge base, read for each
// customer.
type rpUniverse struct {
	// of holds, for each customer, the managed packages' resources as it
	// reads them and every customer's custom packages' resources as
	// their owner reads them.
	of map[string][]rpResource
	// focus are resources that citations are drawn for more often.
	focus map[string][]rpResource
}

// readUniverse reads every package's titles with the holdings reader.
func readUniverse(t *testing.T, st kb.Store, g *rgKB) *rpUniverse {
	t.Helper()
	ctx := context.Background()
	u := &rpUniverse{of: map[string][]rpResource{}}
	read := func(reader, owner string, vendorID, packageID int64, rows []rgRow) []rpResource {
		p, err := st.Package(ctx, reader, vendorID, packageID)
		if err != nil {
			t.Fatalf("package %d for %s: %v", packageID, reader, err)
		}
		var out []rpResource
		for _, ti := range rpTitles(t, st, reader, vendorID, packageID) {
			if len(ti.Resources) != 1 || ti.Resources[0].PackageID != packageID {
				t.Fatalf("title %d of package %d has resources %+v", ti.ID, packageID, ti.Resources)
			}
			r := rpResource{title: ti, res: ti.Resources[0], pkg: p, owner: owner}
			for _, row := range rows {
				if row.t.publisher == ti.Publisher {
					r.rows = append(r.rows, row)
				}
			}
			out = append(out, r)
		}
		return out
	}
	var custom []rpResource
	for _, c := range g.custs {
		for _, id := range g.custom[c] {
			custom = append(custom, read(c, c, g.vendor[c], id, nil)...)
		}
	}
	for _, c := range g.custs {
		for _, p := range g.packages {
			u.of[c] = append(u.of[c], read(c, "", p.vendorID, p.id, p.rows)...)
		}
		u.of[c] = append(u.of[c], custom...)
	}
	return u
}

// rpCitation is a generated citation: the OpenURL's values and what they
// mean, as the generator wrote them.
type rpCitation struct {
	values url.Values
	today  time.Time
	// issns and isbns are the identifiers as written, valid or not;
	// title the title as written ("" none).
	issns, isbns []string
	title        string
	// date is what the OpenURL's date means: yyyy, yyyy-mm or
	// yyyy-mm-dd; "" when it has none or none that can be read.
	date          string
	volume, issue int // 0: none
	doi           string
}

// rpResult is one result of the reference (or of the resolver, for
// comparison).
type rpResult struct {
	TitleID, PackageID int64
	Reason             kb.Reason
	Links              []kb.ResolvedLink
}

// rpAnswer is the reference's answer to a citation.
type rpAnswer struct {
	MatchedBy string
	Results   []rpResult
	// resources are the results' resources, for messages.
	resources []rpResource
}

// refISSN returns the significant characters of an ISSN as written
// (eight, the last may be X, upper case) and true, or false when it is
// not one: four digits, maybe a hyphen or a space, three digits and a
// digit or X.
func refISSN(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 9 && (s[4] == '-' || s[4] == ' ') {
		s = s[:4] + s[5:]
	}
	s = strings.ToUpper(s)
	if len(s) != 8 {
		return "", false
	}
	for i, c := range s {
		if !(c >= '0' && c <= '9' || i == 7 && c == 'X') {
			return "", false
		}
	}
	return s, true
}

// refISBN returns an ISBN as written in one form for comparison: an
// ISBN-10 whose check digit holds as its ISBN-13, any other as its
// digits; false when it is not ten or thirteen digits (a ten's last may
// be X) once hyphens and spaces are dropped, or thirteen not starting
// 978 or 979.
func refISBN(s string) (string, bool) {
	s = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(s))
	for i, c := range s {
		if !(c >= '0' && c <= '9' || c == 'X' && i == 9 && len(s) == 10) {
			return "", false
		}
	}
	switch {
	case len(s) == 13 && (strings.HasPrefix(s, "978") || strings.HasPrefix(s, "979")):
		return s, true
	case len(s) != 10:
		return "", false
	}
	sum := 0
	for i := range 10 {
		v := int(s[i] - '0')
		if s[i] == 'X' {
			v = 10
		}
		sum += v * (10 - i)
	}
	if sum%11 != 0 {
		return s, true // a wrong check digit: as written
	}
	d := "978" + s[:9]
	return d + strconv.Itoa(isbn13CheckDigit(d)), true
}

// refIdent returns a stored identifier in the form refISSN or refISBN
// gives, whichever reads it.
func refIdent(id string) string {
	if s, ok := refISSN(id); ok {
		return s
	}
	if s, ok := refISBN(id); ok {
		return s
	}
	return "?" + id
}

// refCustomers reports whether a resource is in the customer's
// collection: selected, not hidden, in a package not hidden, and a
// custom package's only for its owner.
func refCustomers(r rpResource, cust string) bool {
	if r.owner != "" && r.owner != cust {
		return false
	}
	if r.pkg.IsCustom && r.owner == "" {
		return false
	}
	return r.res.IsSelected && !r.res.Visibility.Hidden && !r.pkg.Visibility.Hidden
}

// refResolve is the reference resolver: the titles of the customer's
// collection that the citation's ISSNs name, else its ISBNs, else its
// title folded; each of their resources in the collection judged, best
// first.
func refResolve(u *rpUniverse, cust string, c rpCitation) rpAnswer {
	var mine []rpResource
	for _, r := range u.of[cust] {
		if refCustomers(r, cust) {
			mine = append(mine, r)
		}
	}
	var issns, isbns []string
	for _, s := range c.issns {
		if n, ok := refISSN(s); ok {
			issns = append(issns, n)
		}
	}
	for _, s := range c.isbns {
		if n, ok := refISBN(s); ok {
			isbns = append(isbns, n)
		}
	}
	matchIdent := func(r rpResource, want []string) bool {
		for _, id := range r.title.Identifiers {
			if slices.Contains(want, refIdent(id.ID)) {
				return true
			}
		}
		return false
	}
	var ans rpAnswer
	var found []rpResource
	for _, by := range []struct {
		name  string
		match func(rpResource) bool
		any   bool
	}{
		{"issn", func(r rpResource) bool { return matchIdent(r, issns) }, len(issns) > 0},
		{"isbn", func(r rpResource) bool { return matchIdent(r, isbns) }, len(isbns) > 0},
		{"title", func(r rpResource) bool { return kb.Fold(r.title.Name) == kb.Fold(c.title) }, kb.Fold(c.title) != ""},
	} {
		if !by.any {
			continue
		}
		for _, r := range mine {
			if by.match(r) {
				found = append(found, r)
			}
		}
		if len(found) > 0 {
			ans.MatchedBy = by.name
			break
		}
	}
	type judged struct {
		r      rpResource
		reason kb.Reason
		links  []kb.ResolvedLink
		end    time.Time // where its coverage reaches
	}
	var js []judged
	for _, r := range found {
		reason, dated := refJudge(c, r)
		j := judged{r: r, reason: reason, end: refReach(r, c.today)}
		if reason == kb.ReasonCovered {
			if c.doi != "" && dated {
				j.links = append(j.links, kb.ResolvedLink{Level: kb.LevelArticle, DOI: c.doi})
			}
			j.links = append(j.links, kb.ResolvedLink{Level: kb.LevelTitle})
		}
		js = append(js, j)
	}
	rank := func(j judged) int {
		switch {
		case j.reason != kb.ReasonCovered:
			return 2
		case j.links[0].Level == kb.LevelArticle:
			return 0
		}
		return 1
	}
	slices.SortFunc(js, func(a, b judged) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		if c := b.end.Compare(a.end); c != 0 {
			return c
		}
		if c := strings.Compare(a.r.res.PackageName, b.r.res.PackageName); c != 0 {
			return c
		}
		if c := cmp.Compare(a.r.res.PackageID, b.r.res.PackageID); c != 0 {
			return c
		}
		return cmp.Compare(a.r.title.ID, b.r.title.ID)
	})
	for _, j := range js {
		ans.Results = append(ans.Results, rpResult{TitleID: j.r.title.ID, PackageID: j.r.res.PackageID, Reason: j.reason, Links: j.links})
		ans.resources = append(ans.resources, j.r)
	}
	return ans
}

// never is the reach of a coverage without an end.
var never = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)

// refCoverage is a resource's coverage as the resolver applies it: the
// customer's own ranges when it set any, else the managed ones.
func refCoverage(r rpResource) []kb.Coverage {
	if len(r.res.CustomCoverage) > 0 {
		return r.res.CustomCoverage
	}
	return r.res.ManagedCoverage
}

// refReach is where a resource's coverage reaches: the latest end of its
// ranges, never for a range without an end or no coverage at all (every
// date).
func refReach(r rpResource, today time.Time) time.Time {
	cov := refCoverage(r)
	if len(cov) == 0 {
		return never
	}
	var reach time.Time
	for _, c := range cov {
		if c.End == "" {
			return never
		}
		if e := refDay(c.End); e.After(reach) {
			reach = e
		}
	}
	return reach
}

func refDay(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic("storetest: not a day: " + s)
	}
	return d
}

// refPeriod returns the first and last day of a citation's date.
func refPeriod(date string) (first, last time.Time) {
	y, _ := strconv.Atoi(date[:4])
	switch len(date) {
	case 4:
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC)
	case 7:
		m, _ := strconv.Atoi(date[5:7])
		return time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), time.Date(y, time.Month(m), refMonthDays(y, m), 0, 0, 0, 0, time.UTC)
	}
	d := refDay(date)
	return d, d
}

// refMonthDays is the number of days of a month.
func refMonthDays(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// refEmbargo is a resource's embargo: the customer's when it set one,
// else the managed one; ok is false when it has none.
func refEmbargo(r rpResource) (e kb.Embargo, ok bool) {
	for _, e := range []kb.Embargo{r.res.CustomEmbargo, r.res.ManagedEmbargo} {
		if e.Unit != kb.EmbargoNone && e.Value > 0 {
			return e, true
		}
	}
	return kb.Embargo{}, false
}

// refCutoff is the last day an embargo leaves available: today, less
// the embargo's days or weeks, or its months (or years) on the calendar,
// the last day of the month when it is shorter.
func refCutoff(e kb.Embargo, today time.Time) time.Time {
	switch e.Unit {
	case kb.EmbargoDays:
		return today.Add(-time.Duration(e.Value) * 24 * time.Hour)
	case kb.EmbargoWeeks:
		return today.Add(-time.Duration(e.Value) * 7 * 24 * time.Hour)
	}
	months := e.Value
	if e.Unit == kb.EmbargoYears {
		months *= 12
	}
	y, m := today.Year(), int(today.Month())-months
	for m < 1 {
		m += 12
		y--
	}
	return time.Date(y, time.Month(m), min(today.Day(), refMonthDays(y, m)), 0, 0, 0, 0, time.UTC)
}

// refJudge judges a resource for a citation, by the rules of kb.Judge's
// doc comment, and says whether the citation was checked against its
// coverage (dated).
func refJudge(c rpCitation, r rpResource) (kb.Reason, bool) {
	reason, dated := kb.ReasonCovered, false
	switch {
	case c.date != "":
		dated = true
		first, last := refPeriod(c.date)
		if cov := refCoverage(r); len(cov) > 0 {
			inside, before, after := false, 0, 0
			for _, rg := range cov {
				b, e := refDay(rg.Begin), c.today
				if rg.End != "" {
					e = refDay(rg.End)
				}
				switch {
				case last.Before(b):
					before++
				case first.After(e):
					after++
				default:
					inside = true
				}
			}
			switch {
			case inside:
			case before == len(cov):
				reason = kb.ReasonBefore
			case after == len(cov):
				reason = kb.ReasonAfter
			default:
				reason = kb.ReasonGap
			}
		}
		if e, ok := refEmbargo(r); ok && reason == kb.ReasonCovered && first.After(refCutoff(e, c.today)) {
			reason = kb.ReasonEmbargo
		}
	case c.volume > 0 && len(r.res.CustomCoverage) == 0:
		reason, dated = refVolume(c, r.rows)
	}
	if reason == kb.ReasonCovered && r.res.URL == "" {
		reason = kb.ReasonNoURL
	}
	return reason, dated
}

// refNumber reads a KBART volume or issue: the number it begins with, 0
// when none.
func refNumber(s string) int {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0
	}
	return n
}

// refVolume checks a citation's volume (and issue) against the KBART
// rows that give volume numbers: inside one, or before them all, after
// them all, or between; not checked when no row gives volumes.
func refVolume(c rpCitation, rows []rgRow) (kb.Reason, bool) {
	checked, below, above := 0, 0, 0
	for _, row := range rows {
		fv, fi, lv, li := refNumber(row.vol1), refNumber(row.iss1), refNumber(row.vol2), refNumber(row.iss2)
		if fv == 0 && lv == 0 {
			continue
		}
		checked++
		// Before the first volume (or its first issue).
		if fv > 0 && (c.volume < fv || c.volume == fv && c.issue > 0 && fi > 0 && c.issue < fi) {
			below++
			continue
		}
		// After the last volume (or its last issue); no last volume
		// runs on.
		if lv > 0 && (c.volume > lv || c.volume == lv && c.issue > 0 && li > 0 && c.issue > li) {
			above++
			continue
		}
		return kb.ReasonCovered, true
	}
	switch {
	case checked == 0:
		return kb.ReasonCovered, false
	case below == checked:
		return kb.ReasonBefore, true
	case above == checked:
		return kb.ReasonAfter, true
	}
	return kb.ReasonGap, true
}
