package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kbserver/kbserver/internal/httpapi/analysisapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's collection analysis (issue 38), for the people who decide
// what to renew: 2 to 4 packages compared, a package against the
// holdings, the titles held more than once, and the link-out clicks by
// month (console_analysis_use.go). The counts and lists come from
// analysis.Service and the rows from analysisapi.Rows, as the API's
// overlap and duplicates answer them; the CSV downloads are the API's
// files. The charts are drawn on the server (chart.go).

// maxComparePackages is the most packages the comparison page compares
// (the API's overlap compares up to kb.MaxOverlapPackages).
const maxComparePackages = 4

// The customer's selected packages the forms offer: at most choicePages
// pages of choicePage, by name.
const (
	choicePages = 5
	choicePage  = 100
)

// The analysis pages, for their menu.
const (
	sectionCompare    = "compare"
	sectionAgainst    = "against"
	sectionDuplicates = "duplicates"
	sectionUse        = "use"
)

// The colours of the charts' values: the stylesheet's classes.
const (
	classUnique  = "chart-unique"
	classSame    = "chart-same"
	classPartial = "chart-partial"
	classSome    = "chart-some"
)

// withAnalysis answers an analysis page 404 when the server has no
// analysis service (its store keeps no coverage for one).
func (p *pages) withAnalysis(h staffHandler) staffHandler {
	return func(w http.ResponseWriter, r *http.Request, s *staff) error {
		if p.analyses == nil {
			return kb.Errorf(kb.CodeNotFound, "This server has no collection analysis.")
		}
		return h(w, r, s)
	}
}

// pickOption is a package the forms offer.
type pickOption struct {
	ID      int64
	Label   string
	Checked bool
}

// packageChoices returns the customer's selected packages (custom ones
// too), by name, those of chosen checked; cut says there were more than
// the forms list.
func (p *pages) packageChoices(r *http.Request, custID string, chosen []int64) (opts []pickOption, cut bool, err error) {
	for n := 1; n <= choicePages; n++ {
		l, err := p.finder.Packages(r.Context(), custID, kb.PackageQuery{Selection: kb.SelectionSelected, OrderBy: kb.OrderName,
			Page: kb.Page{Count: choicePage, Number: n}})
		if err != nil {
			return nil, false, fmt.Errorf("selected packages of %s: %w", custID, err)
		}
		for _, pkg := range l.Packages {
			opts = append(opts, pickOption{ID: pkg.ID, Label: packageLabel(pkg), Checked: slices.Contains(chosen, pkg.ID)})
		}
		if n*choicePage >= l.Total {
			break
		}
		cut = n == choicePages
	}
	return opts, cut, nil
}

// typedIDs returns the ids of chosen that opts does not offer, as the
// form's field of package ids shows them.
func typedIDs(chosen []int64, opts []pickOption) string {
	var out []string
	for _, id := range chosen {
		if !slices.ContainsFunc(opts, func(o pickOption) bool { return o.ID == id }) {
			out = append(out, strconv.FormatInt(id, 10))
		}
	}
	return strings.Join(out, ", ")
}

// chosenIDs reads the packages a form chose: the ticked or selected ones
// (packageid, repeatable), then those typed (packageids, separated by
// commas or spaces), each once. sent is false when the form was not sent
// (neither field is in the query).
func chosenIDs(r *http.Request) (ids []string, sent bool) {
	q := lowerKeys(r.URL.Query())
	_, ticked := q["packageid"]
	_, typed := q["packageids"]
	seen := map[string]bool{}
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" && !seen[v] {
			seen[v] = true
			ids = append(ids, v)
		}
	}
	for _, v := range q["packageid"] {
		add(v)
	}
	for _, v := range q["packageids"] {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			add(f)
		}
	}
	return ids, ticked || typed
}

// joinIDs writes ids as the packageids parameter.
func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// listQuery is the query of a list's page and file: the packages, against
// the holdings or not, and the list.
func listQuery(ids []int64, against bool, list string) string {
	v := url.Values{"packageids": {joinIDs(ids)}, "list": {list}}
	if against {
		v.Set("against", "holdings")
	}
	return v.Encode()
}

// listHref returns the address of a list's page.
func listHref(ids []int64, against bool, list string) string {
	return consolePath + "analysis/titles?" + listQuery(ids, against, list)
}

// comparePackage is a package of a comparison as the page shows it.
type comparePackage struct {
	ID, VendorID         int64
	Name                 string
	Titles, Unique, Some int
	UniqueHref           string
}

// comparePage is the comparison of packages: the form, and once sent the
// counts, their chart, and the links to their lists.
type comparePage struct {
	frame
	Section    string
	Choices    []pickOption
	ChoicesCut bool
	Typed      string // the ids chosen that Choices does not offer
	Max        int
	Done       bool
	Packages   []comparePackage
	// Many says more than two packages are compared: a title may be in
	// some of the others, not all.
	Many                    bool
	Shared, Same, Partial   int
	SharedHref, PartialHref string
	Chart                   barChart
}

// consoleCompare serves /console/analysis: the form that picks 2 to 4
// packages (packageid, ticked, and packageids, typed), and once sent the
// overlap's counts as the API's overlap counts them. With only with (a
// package's id, as a package's page links here) the form opens with that
// package chosen.
func (p *pages) consoleCompare(w http.ResponseWriter, r *http.Request, s *staff) error {
	data := comparePage{frame: consoleFrame(s, "Compare packages"), Section: sectionCompare, Max: maxComparePackages}
	var chosen []int64
	ids, sent := chosenIDs(r)
	if sent {
		if n := len(ids); n < kb.MinOverlapPackages || n > maxComparePackages {
			return kb.Errorf(kb.CodeInvalid, "Choose %d to %d packages to compare (you chose %d).", kb.MinOverlapPackages, maxComparePackages, n)
		}
		q, err := kb.ParseOverlap(strings.Join(ids, ","), "", "")
		if err != nil {
			return err
		}
		o, err := p.analyses.Overlap(r.Context(), s.CustomerID, q)
		if err != nil {
			return passOn(err, "the overlap of packages %v of %s", q.PackageIDs, s.CustomerID)
		}
		data.counts(o, q)
		chosen = q.PackageIDs
	} else if id, err := strconv.ParseInt(r.URL.Query().Get("with"), 10, 64); err == nil && id > 0 {
		chosen = []int64{id}
	}
	var err error
	if data.Choices, data.ChoicesCut, err = p.packageChoices(r, s.CustomerID, chosen); err != nil {
		return err
	}
	data.Typed = typedIDs(chosen, data.Choices)
	return render(w, http.StatusOK, "console_analysis", data)
}

// counts fills the page with the overlap o of q.
func (data *comparePage) counts(o kb.Overlap, q kb.OverlapQuery) {
	data.Done, data.Many = true, len(o.Packages) > 2
	data.Shared, data.Same, data.Partial = o.SharedCount, o.SameCoverageCount, o.SharedCount-o.SameCoverageCount
	data.SharedHref, data.PartialHref = listHref(q.PackageIDs, false, "shared"), listHref(q.PackageIDs, false, "partial")
	series := []chartSeries{{"Unique", classUnique}, {"Shared by all, same coverage", classSame}, {"Shared by all, other coverage", classPartial}}
	if data.Many {
		series = append(series, chartSeries{"In some of the others", classSome})
	}
	var names []string
	var values [][]int
	for _, pk := range o.Packages {
		cp := comparePackage{ID: pk.PackageID, VendorID: pk.VendorID, Name: pk.PackageName, Titles: pk.TitleCount, Unique: pk.UniqueCount,
			Some:       pk.TitleCount - pk.UniqueCount - o.SharedCount,
			UniqueHref: listHref(q.PackageIDs, false, "unique:"+strconv.FormatInt(pk.PackageID, 10))}
		data.Packages = append(data.Packages, cp)
		names = append(names, pk.PackageName)
		values = append(values, []int{cp.Unique, data.Same, data.Partial, cp.Some})
	}
	data.Chart = newBarChart("The titles of each package", series, names, values)
}

// againstPage is a package against the holdings: the form, and once sent
// the counts, their chart and the links to their lists.
type againstPage struct {
	frame
	Section                              string
	Choices                              []pickOption
	ChoicesCut                           bool
	Typed                                string
	Done                                 bool
	Package                              kb.OverlapPackage
	Held, HeldFully, HeldPartly, NotHeld int
	HeldHref, HeldFullyHref, NotHeldHref string
	Chart                                barChart
}

// consoleAgainst serves /console/analysis/against: the form that picks
// one package (packageid, selected, or packageids, typed), and once sent
// what the package would add to the customer's holdings, as the API's
// overlap with against=holdings counts it.
func (p *pages) consoleAgainst(w http.ResponseWriter, r *http.Request, s *staff) error {
	data := againstPage{frame: consoleFrame(s, "A package against my holdings"), Section: sectionAgainst}
	var chosen []int64
	if ids, sent := chosenIDs(r); sent {
		if len(ids) != 1 {
			return kb.Errorf(kb.CodeInvalid, "Choose one package to compare with the holdings (you chose %d).", len(ids))
		}
		q, err := kb.ParseOverlap(ids[0], "holdings", "")
		if err != nil {
			return err
		}
		a, err := p.analyses.Against(r.Context(), s.CustomerID, q)
		if err != nil {
			return passOn(err, "package %d of %s against its holdings", q.PackageIDs[0], s.CustomerID)
		}
		data.counts(a, q)
		chosen = q.PackageIDs
	}
	var err error
	if data.Choices, data.ChoicesCut, err = p.packageChoices(r, s.CustomerID, chosen); err != nil {
		return err
	}
	data.Typed = typedIDs(chosen, data.Choices)
	return render(w, http.StatusOK, "console_analysis_against", data)
}

// counts fills the page with a, the package of q against the holdings.
func (data *againstPage) counts(a kb.Against, q kb.OverlapQuery) {
	data.Done, data.Package = true, a.Package
	data.Held, data.HeldFully = a.HeldCount, a.HeldFullyCount
	data.HeldPartly, data.NotHeld = a.HeldCount-a.HeldFullyCount, a.Package.TitleCount-a.HeldCount
	data.HeldHref, data.HeldFullyHref = listHref(q.PackageIDs, true, "held"), listHref(q.PackageIDs, true, "heldfully")
	data.NotHeldHref = listHref(q.PackageIDs, true, "notheld")
	series := []chartSeries{{"Not held elsewhere", classUnique}, {"Held fully elsewhere", classSame}, {"Held elsewhere with less coverage", classPartial}}
	data.Chart = newBarChart("The titles of "+a.Package.PackageName, series, []string{a.Package.PackageName},
		[][]int{{data.NotHeld, data.HeldFully, data.HeldPartly}})
}

// listColumn is a column of a list's table: its heading, and whether its
// cells name their packages (a column of several packages' resources).
type listColumn struct {
	Head  string
	Named bool
}

// listRow is a title of a list, with its resources in each column.
type listRow struct {
	Name, Publisher, Href string // Href: the console's page of its first resource shown
	Cells                 [][]resourceCell
}

// resourceCell is a resource in a list: its package, its effective
// coverage and embargo in words, and its clicks.
type resourceCell struct {
	Package, Coverage string
	Clicks            int
	Selected          bool
}

// listPage is a page of the titles behind a count, or of the duplicates.
type listPage struct {
	frame
	Section              string
	Heading, Intro       string
	Back, BackLabel      string
	Total                int
	Columns              []listColumn
	Rows                 []listRow
	Pager                *pager
	CSV                  string
	ClicksFrom, ClicksTo string
}

// rowsOf returns the titles as a list's rows, each resource in the
// column col gives it (none when less than 0), with its clicks.
func rowsOf(titles []kb.Title, c analysisapi.Clicks, columns int, col func(kb.Resource) int) []listRow {
	out := make([]listRow, 0, len(titles))
	for _, t := range titles {
		row := listRow{Name: t.Name, Publisher: t.Publisher, Cells: make([][]resourceCell, columns)}
		for _, r := range t.Resources {
			i := col(r)
			if i < 0 || i >= columns {
				continue
			}
			if row.Href == "" {
				row.Href = fmt.Sprintf("%sresources/%d/%d/%d", consolePath, r.VendorID, r.PackageID, t.ID)
			}
			r.CustomCoverage, r.ManagedCoverage = byBegin(r.CustomCoverage), byBegin(r.ManagedCoverage)
			cov := coverageWords(r)
			if cov == "" {
				cov = "All dates."
			}
			row.Cells[i] = append(row.Cells[i], resourceCell{Package: r.PackageName, Coverage: cov, Selected: r.IsSelected,
				Clicks: int(c.Of[kb.ResourceKey{PackageID: r.PackageID, TitleID: t.ID}])})
		}
		out = append(out, row)
	}
	return out
}

// byBegin returns a copy of the ranges, the earliest first, to read as
// a list's coverage.
func byBegin(ranges []kb.Coverage) []kb.Coverage {
	return slices.SortedStableFunc(slices.Values(ranges), func(a, b kb.Coverage) int { return strings.Compare(a.Begin, b.Begin) })
}

// listParams reads a list's parameters (packageids, against, list, as
// the API's overlap reads them) and its page.
func listParams(r *http.Request) (kb.OverlapQuery, int, error) {
	params := web.NewQuery(r)
	q, err := kb.ParseOverlap(params.Get("packageids"), params.Get("against"), params.Get("list"))
	if err != nil {
		return q, 0, err
	}
	if q.List.Kind == kb.ListNone {
		return q, 0, kb.Errorf(kb.CodeMissing, "Parameter list is missing: give unique:{packageId}, shared or partial (with against=holdings: held, heldfully or notheld).")
	}
	pageNo, err := pageParam(params)
	return q, pageNo, err
}

// consoleAnalysisTitles serves /console/analysis/titles: a page of the
// titles behind one of a comparison's counts or of a package's against
// the holdings (the API's overlap with list), each with its resources'
// coverage and clicks, and the link to all of them as CSV.
func (p *pages) consoleAnalysisTitles(w http.ResponseWriter, r *http.Request, s *staff) error {
	q, pageNo, err := listParams(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	pkgs, err := p.analyses.Packages(ctx, s.CustomerID, q.PackageIDs)
	if err != nil {
		return passOn(err, "packages %v of %s", q.PackageIDs, s.CustomerID)
	}
	pg := kb.Page{Count: consolePageSize, Number: pageNo}
	ids, total, at, err := p.analyses.List(ctx, s.CustomerID, q, pg)
	if err != nil {
		return passOn(err, "list %s of packages %v of %s", analysisapi.ListName(q.List), q.PackageIDs, s.CustomerID)
	}
	titles, clicks, err := analysisapi.Rows(ctx, p.store, s.CustomerID, at, ids)
	if err != nil {
		return fmt.Errorf("the rows of list %s of packages %v of %s: %w", analysisapi.ListName(q.List), q.PackageIDs, s.CustomerID, err)
	}
	data := listPage{frame: consoleFrame(s, "Collection analysis"), Total: total, ClicksFrom: monthWords(clicks.From), ClicksTo: monthWords(clicks.To),
		CSV: consolePath + "analysis/titles.csv?" + listQuery(q.PackageIDs, q.AgainstHoldings, analysisapi.ListName(q.List))}
	var col func(kb.Resource) int
	if q.AgainstHoldings {
		a := pkgs[0]
		data.Section, data.Back, data.BackLabel = sectionAgainst, fmt.Sprintf("%sanalysis/against?packageid=%d", consolePath, a.PackageID), "Back to "+a.PackageName+" against the holdings"
		data.Columns = []listColumn{{Head: a.PackageName}, {Head: "Selected in other packages", Named: true}}
		col = func(r kb.Resource) int {
			switch {
			case r.PackageID == a.PackageID:
				return 0
			case r.IsSelected:
				return 1
			}
			return -1
		}
	} else {
		data.Section, data.Back, data.BackLabel = sectionCompare, consolePath+"analysis?packageids="+url.QueryEscape(joinIDs(q.PackageIDs)), "Back to the comparison"
		for _, pk := range pkgs {
			data.Columns = append(data.Columns, listColumn{Head: pk.PackageName})
		}
		col = func(r kb.Resource) int { return slices.Index(q.PackageIDs, r.PackageID) }
	}
	data.Heading, data.Intro = listWords(q, pkgs)
	data.Title = data.Heading
	data.Rows = rowsOf(titles, clicks, len(data.Columns), col)
	params := url.Values{"packageids": {joinIDs(q.PackageIDs)}, "list": {analysisapi.ListName(q.List)}}
	if q.AgainstHoldings {
		params.Set("against", "holdings")
	}
	if data.Pager = pagerOf(params, pg, total); data.Pager != nil {
		data.Pager.rename("offset", "page")
	}
	return render(w, http.StatusOK, "console_analysis_list", data)
}

// listWords returns a list's heading and what it holds.
func listWords(q kb.OverlapQuery, pkgs []kb.OverlapPackage) (heading, intro string) {
	switch q.List.Kind {
	case kb.ListUnique:
		name := ""
		for _, pk := range pkgs {
			if pk.PackageID == q.List.PackageID {
				name = pk.PackageName
			}
		}
		return "Only in " + name, "The titles of " + name + " that none of the other packages compared has."
	case kb.ListShared:
		return fmt.Sprintf("In all %d packages", len(pkgs)), "The titles every package compared has, with each one's coverage."
	case kb.ListPartial:
		return fmt.Sprintf("In all %d packages, with other coverage", len(pkgs)),
			"The titles every package compared has, whose effective coverage or embargo is not the same in each."
	}
	name := pkgs[0].PackageName
	switch q.List.Kind {
	case kb.ListHeld:
		return name + ": held elsewhere", "The titles of " + name + " the library selects in another package as well."
	case kb.ListHeldFully:
		return name + ": held fully elsewhere", "The titles of " + name + " whose coverage the library's other selected packages together give, as of today, embargoes applied."
	}
	return name + ": what it would add", "The titles of " + name + " the library selects in no other package."
}

// consoleAnalysisTitlesCSV serves /console/analysis/titles.csv: every
// title of the list as the API's overlap with format=csv writes it.
func (p *pages) consoleAnalysisTitlesCSV(w http.ResponseWriter, r *http.Request, s *staff) error {
	q, _, err := listParams(r)
	if err != nil {
		return err
	}
	if err := analysisapi.WriteListCSV(r.Context(), w, p.analyses, p.store, s.CustomerID, q); err != nil {
		return passOn(err, "the CSV file of list %s of packages %v of %s", analysisapi.ListName(q.List), q.PackageIDs, s.CustomerID)
	}
	return nil
}

// consoleDuplicates serves /console/analysis/duplicates: a page of the
// titles the customer selects in two packages or more (the API's
// duplicates), each with its selected resources' coverage and clicks.
func (p *pages) consoleDuplicates(w http.ResponseWriter, r *http.Request, s *staff) error {
	pageNo, err := pageParam(web.NewQuery(r))
	if err != nil {
		return err
	}
	ctx := r.Context()
	pg := kb.Page{Count: consolePageSize, Number: pageNo}
	ids, total, at, err := p.analyses.Duplicates(ctx, s.CustomerID, pg)
	if err != nil {
		return fmt.Errorf("the duplicates of %s: %w", s.CustomerID, err)
	}
	titles, clicks, err := analysisapi.Rows(ctx, p.store, s.CustomerID, at, ids)
	if err != nil {
		return fmt.Errorf("the rows of the duplicates of %s: %w", s.CustomerID, err)
	}
	data := listPage{frame: consoleFrame(s, "My duplicates"), Section: sectionDuplicates, Heading: "Titles selected in two packages or more",
		Intro: "The titles the library pays for more than once (a hidden title counts: it is paid for), each with its selected packages' coverage and clicks: which of them is used, and through which package.",
		Total: total, Columns: []listColumn{{Head: "Selected in", Named: true}}, CSV: consolePath + "analysis/duplicates.csv",
		ClicksFrom: monthWords(clicks.From), ClicksTo: monthWords(clicks.To)}
	data.Rows = rowsOf(titles, clicks, 1, func(r kb.Resource) int {
		if r.IsSelected {
			return 0
		}
		return -1
	})
	if data.Pager = pagerOf(url.Values{}, pg, total); data.Pager != nil {
		data.Pager.rename("offset", "page")
	}
	return render(w, http.StatusOK, "console_analysis_list", data)
}

// consoleDuplicatesCSV serves /console/analysis/duplicates.csv: every
// duplicate as the API's duplicates with format=csv writes it.
func (p *pages) consoleDuplicatesCSV(w http.ResponseWriter, r *http.Request, s *staff) error {
	if err := analysisapi.WriteDuplicatesCSV(r.Context(), w, p.analyses, p.store, s.CustomerID); err != nil {
		return fmt.Errorf("the duplicates' CSV file of %s: %w", s.CustomerID, err)
	}
	return nil
}
