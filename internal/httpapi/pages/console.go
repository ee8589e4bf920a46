package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The staff console: search, a package's page, a resource's page and the
// change history. Every change goes through the store's own methods
// (UpdatePackage, UpdateResource) with the kb rules, as the holdings
// service's PUTs do, so the console and the API write one way and say the
// same things about bad input.

// consoleFrame returns the frame of a console page.
func consoleFrame(s *staff, title string) frame {
	return frame{Title: title, Brand: "kbserver staff console", Home: consolePath, Staff: s}
}

// consolePageSize is the number of entries of a console list page.
const consolePageSize = 25

// consoleHome serves the console's start: the search form and the
// customer's selected packages.
func (p *pages) consoleHome(w http.ResponseWriter, r *http.Request, s *staff) error {
	l, err := p.finder.Packages(r.Context(), s.CustomerID, kb.PackageQuery{Selection: kb.SelectionSelected, OrderBy: kb.OrderName,
		Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		return fmt.Errorf("selected packages of %s: %w", s.CustomerID, err)
	}
	data := struct {
		frame
		Kinds        []option
		Packages     []kb.Package
		Total        int
		ContentTypes []option
		Flash        string
	}{consoleFrame(s, "Staff console"), choose(searchKinds, ""), l.Packages, l.Total, contentTypeOptions(kb.ContentEJournal), ""}
	if d := r.URL.Query().Get("deleted"); d != "" {
		data.Flash = "Package " + d + " deleted."
	}
	return render(w, http.StatusOK, "console_home", data)
}

// searchKinds are what the console searches.
var searchKinds = []option{{Value: "titles", Label: "titles"}, {Value: "packages", Label: "packages"}, {Value: "vendors", Label: "vendors"}}

// consoleSearch searches titles, packages or vendors as the holdings
// service's lists do (q, page).
func (p *pages) consoleSearch(w http.ResponseWriter, r *http.Request, s *staff) error {
	params := web.NewQuery(r)
	q, err := web.Search(params, "q")
	if err != nil {
		return err
	}
	kind := params.Get("kind")
	pageNo, err := pageParam(params)
	if err != nil {
		return err
	}
	vendorID := int64(0)
	if v := params.Get("vendor"); v != "" {
		if vendorID, err = strconv.ParseInt(v, 10, 64); err != nil || vendorID < 1 {
			return kb.Errorf(kb.CodeInvalid, "Parameter vendor must be a vendor id (got %q).", v)
		}
	}
	page := kb.Page{Count: consolePageSize, Number: pageNo}
	data := struct {
		frame
		Kinds    []option
		Kind, Q  string
		Total    int
		Titles   []kb.Title
		Packages []kb.Package
		Vendors  []kb.Vendor
		Pager    *pager
		Error    string
	}{frame: consoleFrame(s, "Search"), Kinds: choose(searchKinds, kind), Kind: kind, Q: q}
	ctx := r.Context()
	switch kind {
	case "packages":
		l, err := p.finder.Packages(ctx, s.CustomerID, kb.PackageQuery{VendorID: vendorID, Search: q, OrderBy: byName(q), Page: page})
		if err != nil {
			return passOn(err, "console search")
		}
		data.Packages, data.Total = l.Packages, l.Total
	case "vendors":
		l, err := p.finder.Vendors(ctx, s.CustomerID, kb.VendorQuery{Search: q, OrderBy: byName(q), Page: page})
		if err != nil {
			return passOn(err, "console search")
		}
		data.Vendors, data.Total = l.Vendors, l.Total
	default:
		data.Kind = "titles"
		if q == "" {
			data.Error = "Enter words to search titles for."
			return render(w, http.StatusOK, "console_search", data)
		}
		l, err := p.finder.Titles(ctx, s.CustomerID, kb.TitleQuery{Search: q, Type: kb.SearchContains, Page: page})
		if err != nil {
			return passOn(err, "console search")
		}
		data.Titles, data.Total = l.Titles, l.Total
	}
	data.Pager = pagerOf(lowerKeys(r.URL.Query()), kb.Page{Count: consolePageSize, Number: pageNo}, data.Total)
	if data.Pager != nil {
		data.Pager.rename("offset", "page")
	}
	return render(w, http.StatusOK, "console_search", data)
}

// maxConsolePage is the highest page number of a console list, as the
// API's lists allow.
const maxConsolePage = 1_000_000

// pageParam reads the page parameter of a console list: 1 when absent.
func pageParam(q web.Query) (int, error) {
	v := q.Get("page")
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxConsolePage {
		return 0, kb.Errorf(kb.CodeInvalid, "Parameter page must be a page number from 1 to %s (got %q).", kb.Thousands(maxConsolePage), v)
	}
	return n, nil
}

// byName orders a list by name when there is nothing to rank by.
func byName(q string) kb.Order {
	if q == "" {
		return kb.OrderName
	}
	return kb.OrderRelevance
}

// packagePage is what a package's page shows.
type packagePage struct {
	frame
	Package              kb.Package
	Proxies              []option
	Titles               []kb.Title
	Total                int
	Pager                *pager
	Q, Error, Flash      string
	Begin, End, TokenVal string
	Selected, Hidden     bool
	AllTitles            bool // select the package whole, not only the titles chosen one by one
	AllowAdd             bool
	Action               string
	Feed                 string   // how a feed keeps the package current; "" for none
	Name                 string   // a custom package's
	ContentTypes         []option // a custom package's
	PubTypes             []option // of a new custom title
	Assigned             *assigned
}

// consolePackage serves a package's page: its state and customisation
// as a form, and a page of its titles with their state.
func (p *pages) consolePackage(w http.ResponseWriter, r *http.Request, s *staff) error {
	vendorID, packageID, err := pathIDs2(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	pkg, err := p.store.Package(ctx, s.CustomerID, vendorID, packageID)
	if err != nil {
		return passOn(err, "package %d/%d", vendorID, packageID)
	}
	data := packagePage{frame: consoleFrame(s, pkg.Name), Package: pkg, Action: r.URL.Path,
		Selected: pkg.IsSelected, Hidden: pkg.Visibility.Hidden, AllowAdd: pkg.AllowOperatorToAddTitles,
		AllTitles: pkg.SelectedWhole || !pkg.IsSelected,
		Begin:     pkg.CustomCoverage.Begin, End: pkg.CustomCoverage.End}
	if pkg.Token != nil {
		data.TokenVal = pkg.Token.Value
	}
	if pkg.IsCustom {
		data.Name = pkg.Name
		data.PubTypes = pubTypeOptions(kb.ResourceJournal)
	}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		u, err := packageForm(r, &data)
		if err == nil {
			err = p.store.UpdatePackage(ctx, s.CustomerID, vendorID, packageID, u)
		}
		if err == nil && pkg.IsCustom && !u.Selected {
			// Deselecting a custom package deletes it.
			http.Redirect(w, r, consolePath+"?deleted="+url.QueryEscape(pkg.Name), http.StatusSeeOther)
			return nil
		}
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?saved=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("update package %d/%d of %s: %w", vendorID, packageID, s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	} else if r.URL.Query().Get("saved") != "" {
		data.Flash = "Saved."
	}
	if pkg.IsCustom {
		data.ContentTypes = contentTypeOptions(pkg.ContentType)
	} else if data.Feed, err = p.feedWords(r, pkg); err != nil {
		return err
	}
	if data.Proxies, err = p.proxyOptions(r, s.CustomerID, pkg.Proxy); err != nil {
		return err
	}
	params := lowerKeys(r.URL.Query())
	data.Q = params.Get("q")
	pageNo, err := pageParam(web.NewQuery(r))
	if err != nil {
		return err
	}
	l, err := p.finder.Titles(ctx, s.CustomerID, kb.TitleQuery{VendorID: vendorID, PackageID: packageID, Search: data.Q,
		Type: kb.SearchContains, OrderBy: kb.OrderName, Page: kb.Page{Count: consolePageSize, Number: pageNo}})
	if err != nil {
		return passOn(err, "titles of package %d/%d", vendorID, packageID)
	}
	data.Titles, data.Total = l.Titles, l.Total
	if data.Assigned, err = p.assignedTo(r, s, fmt.Sprintf("/vendors/%d/packages/%d", vendorID, packageID)); err != nil {
		return err
	}
	if data.Pager = pagerOf(params, kb.Page{Count: consolePageSize, Number: pageNo}, l.Total); data.Pager != nil {
		data.Pager.rename("offset", "page")
	}
	return render(w, status, "console_package", data)
}

// packageForm reads the package form into the update the holdings
// service's PUT would make, keeping what was sent in data for the form.
func packageForm(r *http.Request, data *packagePage) (kb.PackageUpdate, error) {
	f := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	data.Selected, data.Hidden, data.AllowAdd = f("selected") == "on", f("hidden") == "on", f("allowadd") == "on"
	data.AllTitles = f("alltitles") == "on"
	data.Begin, data.End, data.TokenVal = f("begin"), f("end"), f("token")
	if !kb.SelectionAllowed(data.Selected, data.Hidden) {
		return kb.PackageUpdate{}, kb.Errorf(kb.CodeInvalid, "A package that is not selected cannot be hidden: select it, or leave Hidden unticked.")
	}
	if !data.Selected {
		return kb.PackageUpdate{}, nil
	}
	// Whole, or only the titles chosen one by one (the API's
	// isFullPackage): a package whose titles were selected one by one
	// keeps them so unless all titles are asked for.
	full := data.AllTitles || data.Package.IsCustom
	u := kb.PackageUpdate{Selected: true, FullPackage: &full, Hidden: data.Hidden, AllowOperatorToAddTitles: data.AllowAdd,
		CustomCoverage: kb.Coverage{Begin: data.Begin, End: data.End}, Proxy: proxyChoice(f("proxy"))}
	if u.CustomCoverage.Begin == "" && u.CustomCoverage.End == "" {
		u.CustomCoverage = kb.Coverage{}
	} else if err := kb.CheckCoverageList([]kb.Coverage{u.CustomCoverage}); err != nil {
		return u, err
	}
	if data.Package.IsTokenNeeded {
		u.TokenValue = &data.TokenVal
	}
	if data.Package.IsCustom {
		data.Name = f("name")
		if data.Name == "" {
			return u, kb.Errorf(kb.CodeInvalid, "A custom package needs a name.")
		}
		ct, err := contentTypeField(f("contenttype"))
		if err != nil {
			return u, err
		}
		u.Name, u.ContentType = data.Name, ct
		data.Package.ContentType = ct
	}
	return u, nil
}

// proxyChoice reads the proxy select: "" inherits.
func proxyChoice(v string) *kb.ProxyRef {
	if v == "" {
		return nil
	}
	return &kb.ProxyRef{ID: v}
}

// proxyOptions returns the proxy select's options: inherit, then the
// customer's proxies, the one in force selected when it is not inherited.
func (p *pages) proxyOptions(r *http.Request, custID string, cur kb.ProxyRef) ([]option, error) {
	proxies, err := p.store.Proxies(r.Context(), custID)
	if err != nil {
		return nil, fmt.Errorf("proxies of %s: %w", custID, err)
	}
	out := []option{{Value: "", Label: "inherited", Selected: cur.Inherited || cur.ID == ""}}
	for _, px := range proxies {
		out = append(out, option{Value: px.ID, Label: px.Name, Selected: !cur.Inherited && cur.ID == px.ID})
	}
	return out, nil
}

// resourcePage is what a resource's page shows.
type resourcePage struct {
	frame
	Title            kb.Title
	Resource         kb.Resource
	Proxies          []option
	Coverage         []kb.Coverage
	EmbargoUnits     []option
	EmbargoValue     string
	Statement        string
	UserDefined      []struct{ N, Label, Value string }
	Selected, Hidden bool
	Error, Flash     string
	Action           string
	PubTypes         []option // a custom title's
	Assigned         *assigned
}

// coverageRows is the least number of coverage rows the resource form
// offers (one more than the ranges set, at least this many);
// maxCoverageRows the most it reads.
const (
	coverageRows    = 3
	maxCoverageRows = 1000
)

// consoleResource serves a title in a package: its state and
// customisation as a form.
func (p *pages) consoleResource(w http.ResponseWriter, r *http.Request, s *staff) error {
	vendorID, packageID, err := pathIDs2(r)
	if err != nil {
		return err
	}
	titleID, err := web.PathID(r, "titleid")
	if err != nil {
		return err
	}
	ctx := r.Context()
	t, err := p.store.Resource(ctx, s.CustomerID, vendorID, packageID, titleID)
	if err != nil {
		return passOn(err, "resource %d/%d/%d", vendorID, packageID, titleID)
	}
	if len(t.Resources) == 0 {
		return kb.NotFound("Resource")
	}
	res := t.Resources[0]
	root, err := p.store.Root(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("root settings of %s: %w", s.CustomerID, err)
	}
	data := resourcePage{frame: consoleFrame(s, t.Name), Title: t, Resource: res, Action: r.URL.Path,
		Selected: res.IsSelected, Hidden: res.Visibility.Hidden, Coverage: append([]kb.Coverage(nil), res.CustomCoverage...),
		Statement: res.CoverageStatement}
	unit := ""
	if res.CustomEmbargo.Unit != kb.EmbargoNone && res.CustomEmbargo.Value > 0 {
		unit, data.EmbargoValue = strings.ToLower(res.CustomEmbargo.Unit.String()), strconv.Itoa(res.CustomEmbargo.Value)
	}
	udf := res.UserDefined
	status := http.StatusOK
	if r.Method == http.MethodPost {
		u, err := resourceForm(r, &data, &unit, &udf)
		if err == nil && t.IsCustom && u.Selected {
			var fields kb.TitleFields
			if fields, err = titleFieldsForm(r); err == nil {
				fields.Contributors, fields.Identifiers = t.Contributors, t.Identifiers
				u.Title = &fields
			}
			data.Title.Name, data.Title.Publisher, data.Title.PubType = fields.Name, fields.Publisher, fields.PubType
			data.Title.PeerReviewed, data.Title.Edition, data.Title.Description = fields.PeerReviewed, fields.Edition, fields.Description
			data.Resource.URL = fields.URL
		}
		if err == nil {
			err = p.store.UpdateResource(ctx, s.CustomerID, vendorID, packageID, titleID, u)
		}
		if err == nil && t.IsCustom && !u.Selected {
			// Deselecting a custom title deletes it.
			http.Redirect(w, r, fmt.Sprintf("%spackages/%d/%d?saved=1", consolePath, vendorID, packageID), http.StatusSeeOther)
			return nil
		}
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?saved=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("update resource %d/%d/%d of %s: %w", vendorID, packageID, titleID, s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	} else if r.URL.Query().Get("saved") != "" {
		data.Flash = "Saved."
	}
	for len(data.Coverage) < max(coverageRows, len(res.CustomCoverage)+1) {
		data.Coverage = append(data.Coverage, kb.Coverage{})
	}
	data.EmbargoUnits = choose(embargoUnits, unit)
	if t.IsCustom {
		data.PubTypes = pubTypeOptions(data.Title.PubType)
	}
	for i, l := range root.Labels {
		label := l.DisplayLabel
		if label == "" {
			label = fmt.Sprintf("User-defined field %d", i+1)
		}
		data.UserDefined = append(data.UserDefined, struct{ N, Label, Value string }{strconv.Itoa(i + 1), label, udf[i]})
	}
	if data.Proxies, err = p.proxyOptions(r, s.CustomerID, res.Proxy); err != nil {
		return err
	}
	if data.Assigned, err = p.assignedTo(r, s, fmt.Sprintf("/vendors/%d/packages/%d/titles/%d", vendorID, packageID, titleID)); err != nil {
		return err
	}
	return render(w, status, "console_resource", data)
}

// embargoUnits are the choices of the embargo unit.
var embargoUnits = []option{{Value: "", Label: "no embargo"}, {Value: "days", Label: "days"}, {Value: "weeks", Label: "weeks"},
	{Value: "months", Label: "months"}, {Value: "years", Label: "years"}}

// resourceForm reads the resource form into the update the holdings
// service's PUT would make, keeping what was sent in data (and unit, udf)
// for the form.
func resourceForm(r *http.Request, data *resourcePage, unit *string, udf *[5]string) (kb.ResourceUpdate, error) {
	f := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	data.Selected, data.Hidden = f("selected") == "on", f("hidden") == "on"
	data.Statement, data.EmbargoValue, *unit = f("statement"), f("embargovalue"), f("embargounit")
	data.Coverage = nil
	for i := 1; r.PostForm.Has("begin"+strconv.Itoa(i)) || r.PostForm.Has("end"+strconv.Itoa(i)); i++ {
		if i > maxCoverageRows {
			return kb.ResourceUpdate{}, kb.Errorf(kb.CodeInvalid, "The form sends more than %d coverage ranges.", maxCoverageRows)
		}
		data.Coverage = append(data.Coverage, kb.Coverage{Begin: f("begin" + strconv.Itoa(i)), End: f("end" + strconv.Itoa(i))})
	}
	for i := range udf {
		udf[i] = f("udf" + strconv.Itoa(i+1))
	}
	if !kb.SelectionAllowed(data.Selected, data.Hidden) {
		return kb.ResourceUpdate{}, kb.Errorf(kb.CodeInvalid, "A title that is not selected cannot be hidden: select it, or leave Hidden unticked.")
	}
	if !data.Selected {
		return kb.ResourceUpdate{}, nil
	}
	var ranges []kb.Coverage
	for _, c := range data.Coverage {
		if c.Begin != "" || c.End != "" {
			ranges = append(ranges, c)
		}
	}
	if err := kb.CheckCoverageList(ranges); err != nil {
		return kb.ResourceUpdate{}, err
	}
	value := 0
	if data.EmbargoValue != "" {
		v, err := strconv.Atoi(data.EmbargoValue)
		if err != nil {
			return kb.ResourceUpdate{}, kb.Errorf(kb.CodeInvalid, "The embargo's length must be a whole number (got %q).", data.EmbargoValue)
		}
		value = v
	}
	emb, err := kb.CustomEmbargo(*unit, value)
	if err != nil {
		return kb.ResourceUpdate{}, err
	}
	return kb.ResourceUpdate{Selected: true, Hidden: data.Hidden, CustomCoverage: ranges, CoverageStatement: data.Statement,
		CustomEmbargo: emb, Proxy: proxyChoice(f("proxy")), UserDefined: *udf}, nil
}

// consoleHistory lists the customer's recorded changes and the knowledge
// base's, newest first.
func (p *pages) consoleHistory(w http.ResponseWriter, r *http.Request, s *staff) error {
	mine, err := p.store.Changes(r.Context(), kb.ChangeQuery{CustomerID: s.CustomerID, Limit: 100})
	if err != nil {
		return fmt.Errorf("changes of %s: %w", s.CustomerID, err)
	}
	kbChanges, err := p.store.Changes(r.Context(), kb.ChangeQuery{KB: true, Limit: 50})
	if err != nil {
		return fmt.Errorf("changes of the knowledge base: %w", err)
	}
	data := struct {
		frame
		Mine, KB []kb.Change
	}{consoleFrame(s, "History"), mine, kbChanges}
	return render(w, http.StatusOK, "console_history", data)
}

// pathIDs2 reads the vendor and package ids of the path.
func pathIDs2(r *http.Request) (vendorID, packageID int64, err error) {
	if vendorID, err = web.PathID(r, "vendorid"); err != nil {
		return 0, 0, err
	}
	packageID, err = web.PathID(r, "packageid")
	return vendorID, packageID, err
}

// passOn passes a client's mistake (an unknown package, say) on as it is
// and wraps the rest with what was being read.
func passOn(err error, format string, args ...any) error {
	if kb.ErrorCode(err) != kb.CodeInternal {
		return err
	}
	return fmt.Errorf("read "+format+": %w", append(args, err)...)
}
