package pages

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// patronCookie is the name of a patron's session cookie; its path is the
// profile's A–Z page, so each profile has its own.
const patronCookie = "kb_patron"

// admit admits a request for the profile of the path: a guest profile at
// once, another with a patron session. ok is false when the patron must
// sign in first (the profile may also not exist: the sign-in form does
// not tell).
func (p *pages) admit(w http.ResponseWriter, r *http.Request) (id kb.ProfileID, ok bool, err error) {
	id, _, ok, err = p.admitProfile(w, r)
	return id, ok, err
}

// admitProfile is admit that also returns the profile admitted.
func (p *pages) admitProfile(w http.ResponseWriter, r *http.Request) (id kb.ProfileID, prof kb.Profile, ok bool, err error) {
	if id, err = kb.ParseProfileID(r.PathValue("profile")); err != nil {
		return id, prof, false, err
	}
	if prof, err = p.gate.Lookup(r.Context(), id); err != nil {
		return id, prof, false, err
	}
	known := prof.ID == id
	if known && prof.Guest {
		_, err := p.gate.Admit(w, r, id, "")
		return id, prof, err == nil, err
	}
	c, err := r.Cookie(patronCookie)
	if !known || prof.PasswordHash == "" || err != nil {
		return id, prof, false, nil
	}
	s, err := p.patronSessions(r.Context())
	if err != nil {
		return id, prof, false, err
	}
	if !s.check(c.Value, id.String(), credentialTag(prof.PasswordHash)) {
		return id, prof, false, nil
	}
	return id, prof, true, p.gate.Take(w, r, id)
}

// signInPage renders the password form of the profile's A–Z page.
func signInPage(w http.ResponseWriter, id kb.ProfileID, status int, message string) error {
	return signInPageNext(w, id, status, message, "")
}

// signInPageNext renders the password form, which brings the patron back
// to next (a path of the profile's link resolver, see resolverReturn)
// instead of the A–Z page once signed in.
func signInPageNext(w http.ResponseWriter, id kb.ProfileID, status int, message, next string) error {
	data := struct {
		frame
		Heading, Action, Error, Next string
	}{frame{Title: "Sign in", Brand: "A–Z list", Home: AZPath(id)}, "Sign in to the A–Z list", AZPath(id) + "signin", message, resolverReturn(id, next)}
	return render(w, status, "signin", data)
}

// resolverReturn returns next when it is an address of the profile's
// link resolver on this server (its path, then nothing or a query), else
// "": the sign-in form sends a browser nowhere else.
func resolverReturn(id kb.ProfileID, next string) string {
	base := OpenURLPath(id)
	if next == base || strings.HasPrefix(next, base+"?") {
		return next
	}
	return ""
}

// signIn checks the password of the sign-in form and, when it is right,
// sets the patron's session cookie and sends the browser to the A–Z page.
func (p *pages) signIn(w http.ResponseWriter, r *http.Request) error {
	id, err := kb.ParseProfileID(r.PathValue("profile"))
	if err != nil {
		return err
	}
	if !sameOrigin(r) {
		return kb.Errorf(kb.CodeForbidden, "This form was sent from another site; open the A–Z page and sign in there.")
	}
	password := r.PostFormValue("password")
	next := resolverReturn(id, r.PostFormValue("next"))
	if password == "" {
		return signInPageNext(w, id, http.StatusBadRequest, "Enter the password.", next)
	}
	prof, err := p.gate.Admit(w, r, id, password)
	if kb.ErrorCode(err) == kb.CodeUnauthenticated {
		return signInPageNext(w, id, http.StatusUnauthorized, "That password is not right for this A–Z list.", next)
	}
	if err != nil {
		return err
	}
	s, err := p.patronSessions(r.Context())
	if err != nil {
		return err
	}
	// One session, sent to the A–Z page and to the profile's link
	// resolver (a cookie's path is a prefix of the paths it goes to).
	value := s.value(id.String(), credentialTag(prof.PasswordHash))
	http.SetCookie(w, s.cookie(r, patronCookie, AZPath(id), value))
	http.SetCookie(w, s.cookie(r, patronCookie, OpenURLPath(id), value))
	if next != "" {
		http.Redirect(w, r, next, http.StatusSeeOther)
		return nil
	}
	http.Redirect(w, r, AZPath(id), http.StatusSeeOther)
	return nil
}

// signInGet sends a browser that asks for the sign-in address (back from
// a failed sign-in) to the A–Z page, which shows the form.
func signInGet(w http.ResponseWriter, r *http.Request) error {
	id, err := kb.ParseProfileID(r.PathValue("profile"))
	if err != nil {
		return err
	}
	http.Redirect(w, r, AZPath(id), http.StatusSeeOther)
	return nil
}

// sameOrigin reports whether a form post comes from a page of this
// server: a browser names the page's origin (Origin), or says whether the
// request is same-origin (Sec-Fetch-Site). A request that says neither
// (not a browser) passes: what it could do, it could do with the API.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		return site == "same-origin" || site == "none"
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// option is one choice of a select.
type option struct {
	Value, Label string
	Selected     bool
}

// link is a letter or facet entry: a label, its count and where it leads.
type link struct {
	Label, Chars, Href string
	Count              int
	Active, Current    bool
}

// facetGroup is one facet: its name and entries.
type facetGroup struct {
	Name    string
	Entries []link
}

// resourceView is one package of a title as the page shows it.
type resourceView struct {
	Package, LinkOut, Coverage, Statement string
	Fields                                []struct{ Label, Value string }
	Notes                                 []string
}

// titleView is one result.
type titleView struct {
	Name, Type, Publisher, Identifiers, Subjects string
	PeerReviewed                                 bool
	Resources                                    []resourceView
}

// pager links the pages of a result.
type pager struct {
	Page, Pages             int
	First, Prev, Next, Last string
}

// azData is what the A–Z page shows.
type azData struct {
	frame
	Heading, Base, Search, Error, EmbedHref string
	Fields, Types                           []option
	Letters                                 []link
	Refine                                  []link // the entries below the current letter
	Facets                                  []facetGroup
	Active                                  []link
	Total, From, To                         int
	Results                                 []titleView
	Pager                                   *pager
}

// searchFields and searchTypes are the choices of the search form, with
// the publication search service's parameter values.
var (
	searchFields = []option{{Value: "titlename", Label: "title"}, {Value: "publisher", Label: "publisher"},
		{Value: "subject", Label: "subject"}, {Value: "isxn", Label: "ISSN or ISBN"}}
	searchTypes = []option{{Value: "contains", Label: "contains"}, {Value: "beginswith", Label: "begins with"},
		{Value: "exactmatch", Label: "exactly"}, {Value: "any", Label: "any of the words"},
		{Value: "exactphrase", Label: "the exact phrase"}}
)

// pageSize is the number of titles an A–Z page shows.
const pageSize = 25

// az serves a profile's A–Z page: the search form, the letters, the
// facets of the result, and a page of titles with their packages'
// coverage and link-outs. Its query parameters are the publication search
// service's (search, searchfield, searchtype, alphamenufacet,
// resourcetypefacet, subjectfacet, packagefacet, ispeerreviewedfacet,
// offset).
func (p *pages) az(w http.ResponseWriter, r *http.Request) error {
	id, ok, err := p.admit(w, r)
	if err != nil {
		return err
	}
	if !ok {
		return signInPage(w, id, http.StatusUnauthorized, "")
	}
	custID := id.CustomerID
	params := lowerKeys(r.URL.Query())
	data := azData{
		frame:     frame{Title: "A–Z list", Brand: "A–Z list", Home: AZPath(id)},
		Heading:   "Journals, books and databases A–Z",
		Base:      AZPath(id),
		Search:    params.Get("search"),
		EmbedHref: AZPath(id) + "embed",
	}
	if c, err := p.store.Customer(r.Context(), custID); err == nil && c.Name != "" {
		data.Brand = c.Name
		data.Title = c.Name + " A–Z"
	}
	q, err := pfapi.ParseQuery(web.NewQuery(r))
	if err == nil && q.Page.Count != pageSize && params.Get("count") == "" {
		q.Page.Count = pageSize
	}
	data.Fields = choose(searchFields, params.Get("searchfield"))
	data.Types = choose(searchTypes, params.Get("searchtype"))
	if err := p.letters(r, custID, params, &data); err != nil {
		return err
	}
	if err != nil {
		if kb.ErrorCode(err) == kb.CodeInternal {
			return err
		}
		data.Error = kb.ErrorMessage(err)
		return render(w, http.StatusBadRequest, "az", data)
	}
	q.Facets = true
	q.ByName = q.ByName || strings.TrimSpace(q.Search) == ""
	res, err := p.searcher.Search(r, custID, q)
	if kb.ErrorCode(err) == kb.CodeInvalid {
		data.Error = kb.ErrorMessage(err)
		return render(w, http.StatusBadRequest, "az", data)
	}
	if err != nil {
		return fmt.Errorf("A–Z search of %s: %w", id, err)
	}
	linkOut, labels, err := p.searcher.LinkOuts(r, custID)
	if err != nil {
		return err
	}
	data.Total = res.Total
	if res.Total > 0 {
		data.From = q.Page.Offset() + 1
		data.To = q.Page.Offset() + len(res.Titles)
	}
	for _, t := range res.Titles {
		data.Results = append(data.Results, viewOf(t, linkOut, labels))
	}
	data.Facets, data.Active = facets(res.Facets, q, params)
	data.Pager = pagerOf(params, q.Page, res.Total)
	return render(w, http.StatusOK, "az", data)
}

// choose returns the options with the one of value selected (the first
// when value is none of them).
func choose(opts []option, value string) []option {
	out := append([]option(nil), opts...)
	k := 0
	for i, o := range out {
		if strings.EqualFold(o.Value, value) {
			k = i
		}
	}
	out[k].Selected = true
	return out
}

// letters fills the letter bar: the first level of the alpha menu in the
// request's language, with the number of titles under each entry.
func (p *pages) letters(r *http.Request, custID string, params url.Values, data *azData) error {
	// The menu of the current entry's first letter (of A when there is
	// none) gives the letters (position 0) and, below a current letter,
	// the entries that refine it (position 1: Na, Ne, … or 0, 1, …).
	current := params.Get("alphamenufacet")
	top := 2
	e, err := alpha.ParseEntry(current)
	valid := current != "" && err == nil
	if valid {
		top = e.TopIndex() + 1
	}
	menu, err := pfapi.RequestLocale(r).NewMenu(top)
	if err != nil {
		return fmt.Errorf("alpha menu: %w", err)
	}
	if err := p.searcher.Menu(r.Context(), custID, kb.ResourceAll, menu); err != nil {
		return fmt.Errorf("alpha menu of %s: %w", custID, err)
	}
	res := menu.Result()
	for _, it := range res[0] {
		// The letter is current when the page is under it, at any level.
		l := link{Chars: it.Characters, Count: it.Count, Current: valid && it.MenuID == top}
		l.Href = "?" + with(params, "alphamenufacet", it.Characters, "search", "")
		data.Letters = append(data.Letters, l)
	}
	if !valid {
		return nil
	}
	for _, it := range res[1] {
		if it.Count == 0 {
			continue
		}
		l := link{Chars: it.Characters, Count: it.Count, Current: strings.EqualFold(it.Characters, current)}
		l.Href = "?" + with(params, "alphamenufacet", it.Characters, "search", "")
		data.Refine = append(data.Refine, l)
	}
	return nil
}

// lowerKeys returns the query parameters with their names in lower case
// (the values of spellings of one name joined), as the service reads them
// (web.Query): the page's links then set and remove each parameter under
// one spelling.
func lowerKeys(params url.Values) url.Values {
	out := make(url.Values, len(params))
	for k, vs := range params {
		lk := strings.ToLower(k)
		out[lk] = append(out[lk], vs...)
	}
	return out
}

// cloneParams returns a copy of params that a link may change.
func cloneParams(params url.Values) url.Values {
	v := make(url.Values, len(params))
	for k, vs := range params {
		v[k] = append([]string(nil), vs...)
	}
	return v
}

// with returns params with each name set to its value ("" removes it),
// back on the first page, as a query string.
func with(params url.Values, pairs ...string) string {
	v := cloneParams(params)
	v.Del("offset")
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			v.Del(pairs[i])
		} else {
			v.Set(pairs[i], pairs[i+1])
		}
	}
	return v.Encode()
}

// adding returns params with value added to the repeated parameter name
// (and back on the first page), or removed from it when remove is set.
func adding(params url.Values, name, value string, remove bool) string {
	v := cloneParams(params)
	v.Del("offset")
	var kept []string
	for _, x := range v[name] {
		if !strings.EqualFold(x, value) {
			kept = append(kept, x)
		}
	}
	if !remove {
		kept = append(kept, value)
	}
	v[name] = kept
	if len(kept) == 0 {
		v.Del(name)
	}
	return v.Encode()
}

// facets returns the facet groups of a result, each entry linking to the
// result narrowed by it, and the filters in force, each linking to the
// result without it.
func facets(f *kb.PubFacets, q kb.PubQuery, params url.Values) ([]facetGroup, []link) {
	var active []link
	has := func(name, value string) bool {
		for _, x := range params[name] {
			if strings.EqualFold(x, value) {
				return true
			}
		}
		return false
	}
	for _, x := range params["resourcetypefacet"] {
		label := x
		if rt, ok := kb.LookupResourceType(x); ok {
			label = typeWords(rt)
		}
		active = append(active, link{Label: "Type: " + label, Href: "?" + adding(params, "resourcetypefacet", x, true)})
	}
	for _, x := range params["subjectfacet"] {
		active = append(active, link{Label: "Subject: " + x, Href: "?" + adding(params, "subjectfacet", x, true)})
	}
	for _, x := range params["packagefacet"] {
		label := "Package " + x
		if f != nil {
			for _, p := range f.Packages {
				if strconv.FormatInt(p.ID, 10) == x {
					label = "Package: " + p.Name
				}
			}
		}
		active = append(active, link{Label: label, Href: "?" + adding(params, "packagefacet", x, true)})
	}
	if q.PeerReviewed != nil && *q.PeerReviewed {
		active = append(active, link{Label: "Peer reviewed", Href: "?" + with(params, "ispeerreviewedfacet", "")})
	}
	if q.AlphaMenu != "" {
		active = append(active, link{Label: "Starting with " + q.AlphaMenu, Href: "?" + with(params, "alphamenufacet", "")})
	}
	if f == nil {
		return nil, active
	}
	types := facetGroup{Name: "Type"}
	for _, t := range f.ResourceTypes {
		types.Entries = append(types.Entries, link{Label: typeWords(t.Type), Count: t.Count, Active: has("resourcetypefacet", t.Type.String()),
			Href: "?" + adding(params, "resourcetypefacet", t.Type.String(), false)})
	}
	subjects := facetGroup{Name: "Subject"}
	for _, s := range f.Subjects {
		subjects.Entries = append(subjects.Entries, link{Label: s.Name, Count: s.Count, Active: has("subjectfacet", s.Name),
			Href: "?" + adding(params, "subjectfacet", s.Name, false)})
	}
	packages := facetGroup{Name: "Package"}
	for _, p := range f.Packages {
		id := strconv.FormatInt(p.ID, 10)
		packages.Entries = append(packages.Entries, link{Label: p.Name, Count: p.Count, Active: has("packagefacet", id),
			Href: "?" + adding(params, "packagefacet", id, false)})
	}
	peer := facetGroup{Name: "Peer review"}
	for _, pr := range f.PeerReviewed {
		if pr.PeerReviewed {
			peer.Entries = append(peer.Entries, link{Label: "Peer reviewed", Count: pr.Count,
				Active: q.PeerReviewed != nil && *q.PeerReviewed, Href: "?" + with(params, "ispeerreviewedfacet", "true")})
		}
	}
	return []facetGroup{types, subjects, packages, peer}, active
}

// rename moves the pager's links from one page parameter to another.
func (pg *pager) rename(from, to string) {
	for _, l := range []*string{&pg.First, &pg.Prev, &pg.Next, &pg.Last} {
		if *l == "" {
			continue
		}
		v, err := url.ParseQuery(strings.TrimPrefix(*l, "?"))
		if err != nil {
			continue
		}
		v.Set(to, v.Get(from))
		v.Del(from)
		*l = "?" + v.Encode()
	}
}

// pagerOf links the pages of a result of total titles.
func pagerOf(params url.Values, pg kb.Page, total int) *pager {
	n := (total + pg.Count - 1) / pg.Count
	if n <= 1 {
		return nil
	}
	at := func(k int) string {
		v := cloneParams(params)
		v.Set("offset", strconv.Itoa(k))
		return "?" + v.Encode()
	}
	out := &pager{Page: pg.Number, Pages: n}
	if pg.Number > 1 {
		out.First, out.Prev = at(1), at(pg.Number-1)
	}
	if pg.Number < n {
		out.Next, out.Last = at(pg.Number+1), at(n)
	}
	return out
}

// viewOf turns a title of the result into what the page shows.
func viewOf(t kb.Title, linkOut func(kb.ResourceKey) string, labels [5]kb.Label) titleView {
	v := titleView{Name: t.Name, Type: typeWords(t.PubType), Publisher: t.Publisher, PeerReviewed: t.PeerReviewed}
	var ids, subjects []string
	for _, i := range t.Identifiers {
		ids = append(ids, i.ID)
	}
	for _, s := range t.Subjects {
		subjects = append(subjects, s.Name)
	}
	v.Identifiers, v.Subjects = strings.Join(ids, " · "), strings.Join(subjects, "; ")
	for _, r := range t.Resources {
		rv := resourceView{Package: r.PackageName, Coverage: coverageWords(r), Statement: r.CoverageStatement}
		if r.URL != "" {
			rv.LinkOut = linkOut(kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID})
		}
		for i, l := range labels {
			if l.DisplayOnPublicationFinder && l.DisplayLabel != "" && r.UserDefined[i] != "" {
				rv.Fields = append(rv.Fields, struct{ Label, Value string }{l.DisplayLabel, r.UserDefined[i]})
			}
		}
		for _, n := range r.Notes {
			if n.Text != "" {
				rv.Notes = append(rv.Notes, n.Text)
			}
		}
		v.Resources = append(v.Resources, rv)
	}
	return v
}

// embed serves the search-box snippet a library pastes into its own site.
func (p *pages) embed(w http.ResponseWriter, r *http.Request) error {
	// Any well-formed profile gets its snippet: whether one exists is not
	// told here either.
	id, err := kb.ParseProfileID(r.PathValue("profile"))
	if err != nil {
		return err
	}
	scheme := "http"
	if web.HTTPS(r) {
		scheme = "https"
	}
	action := scheme + "://" + r.Host + AZPath(id)
	snippet := `<form action="` + template.HTMLEscapeString(action) + `" method="get" role="search">
  <label for="kb-az-search">Search our journals and books</label>
  <input id="kb-az-search" name="search" type="search">
  <button type="submit">Search</button>
</form>`
	data := struct {
		frame
		Snippet string
		Preview template.HTML
		Back    string
	}{frame{Title: "Search box", Brand: "A–Z list", Home: AZPath(id)}, snippet, template.HTML(snippet), AZPath(id)}
	return render(w, http.StatusOK, "embed", data)
}
