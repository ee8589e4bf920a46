package pages

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/resolver"
)

// ServiceResolver names the link resolver's routes in logs and metrics.
const ServiceResolver = "resolver"

// OpenURLPath returns the address of a profile's link resolver, the
// OpenURL base a library registers with the databases that cite.
func OpenURLPath(profile kb.ProfileID) string { return "/openurl/" + profile.String() }

// Resolver is what the link resolver's page asks the resolver service.
type Resolver interface {
	Resolve(ctx context.Context, custID string, c kb.Citation) (kb.Resolution, error)
	// Today is the resolver's date, midnight UTC.
	Today() time.Time
}

// openURL serves GET and POST /openurl/{profile}: it reads the OpenURL
// (kb.ParseCitation), resolves it over the profile's customer's
// collection (package resolver) and answers with the menu page, the
// JSON form (Accept: application/json), or with redirect=fulltext a 303
// to the best full-text link (the menu when there is none). A guest
// profile answers anyone; a password profile takes the password header
// or the A–Z page's session, and shows its sign-in form to a browser
// without either.
func (p *pages) openURL(w http.ResponseWriter, r *http.Request) error {
	id, err := kb.ParseProfileID(r.PathValue("profile"))
	if err != nil {
		return err
	}
	asJSON := wantsJSON(r)
	values := r.URL.Query()
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return err // 413, as every body over the limit
			}
			return kb.Errorf(kb.CodeInvalid, "The form cannot be read: %v.", err)
		}
		values = r.Form
	}
	// A browser sent to sign in comes back with the citation, a POSTed
	// one too.
	back := OpenURLPath(id) + "?" + values.Encode()
	prof, ok, err := p.admitResolver(w, r, id, asJSON, back)
	if err != nil || !ok {
		return err
	}
	redirect := values.Get("redirect")
	if redirect != "" && redirect != "fulltext" {
		return kb.Errorf(kb.CodeInvalid, "Parameter redirect must be fulltext, not %q.", redirect)
	}
	c, err := kb.ParseCitation(values, p.resolver.Today())
	if err != nil {
		return err
	}
	if !c.Matchable() && asJSON {
		return kb.Errorf(kb.CodeMissing, "The citation has nothing to match on: give an ISSN (issn, eissn, rft.issn, rft.eissn), an ISBN (isbn, rft.isbn) or a title (title, jtitle, btitle, rft.jtitle, rft.btitle, rft.title).")
	}
	custID := id.CustomerID
	ctx := r.Context()
	if r.Method == http.MethodHead {
		// Link checkers and previews are no patron's request: not
		// counted, as the link-out does not count them.
		ctx = resolver.Quietly(ctx)
	}
	res, err := p.resolver.Resolve(ctx, custID, c)
	if err != nil {
		return fmt.Errorf("resolve for %s: %w", id, err)
	}
	links, err := p.resolverLinks(r, custID)
	if err != nil {
		return err
	}
	ans := links.answer(r, res)
	if redirect == "fulltext" && ans.FullText && len(ans.Results[0].Links) > 0 {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Location", ans.Results[0].Links[0].URL)
		w.WriteHeader(http.StatusSeeOther)
		return nil
	}
	if asJSON {
		w.Header().Set("Cache-Control", "no-store")
		return web.WriteJSON(w, http.StatusOK, ans)
	}
	return render(w, http.StatusOK, "openurl", p.menu(r, id, prof, links.labels, res, ans))
}

// admitResolver admits a resolver request: a guest profile at once, a
// password profile with the password header or a patron session of its
// A–Z page. A browser without either is shown the sign-in form (ok
// false, nil error), which brings it back here; JSON clients get 401.
func (p *pages) admitResolver(w http.ResponseWriter, r *http.Request, id kb.ProfileID, asJSON bool, back string) (prof kb.Profile, ok bool, err error) {
	if pw := r.Header.Get(web.PasswordHeader); pw != "" {
		prof, err := p.gate.Admit(w, r, id, pw)
		return prof, err == nil, err
	}
	_, prof, ok, err = p.admitProfile(w, r)
	if err != nil || ok {
		return prof, ok, err
	}
	if asJSON {
		return prof, false, kb.Errorf(kb.CodeUnauthenticated, "This profile needs its password in the password header.")
	}
	return prof, false, signInPageNext(w, id, http.StatusUnauthorized, "", back)
}

// wantsJSON reports whether the request asks for JSON: Accept names
// application/json (or application/*+json) before any HTML type, with a
// quality above 0.
func wantsJSON(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(q, 64); err != nil || v <= 0 {
				continue
			}
		}
		switch {
		case mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")):
			return true
		case mt == "text/html" || mt == "application/xhtml+xml":
			return false
		}
	}
	return false
}

// linkContext turns a resolution's links into link-outs and targets: the
// customer's proxies' masks, its labels and the link-out signer.
type linkContext struct {
	custID string
	signer kb.LinkSigner
	masks  map[string]string
	labels [5]kb.Label
}

// resolverLinks reads what the customer's links need.
func (p *pages) resolverLinks(r *http.Request, custID string) (linkContext, error) {
	ctx := r.Context()
	root, err := p.store.Root(ctx, custID)
	if err != nil {
		return linkContext{}, fmt.Errorf("root settings of %s: %w", custID, err)
	}
	proxies, err := p.store.Proxies(ctx, custID)
	if err != nil {
		return linkContext{}, fmt.Errorf("proxies of %s: %w", custID, err)
	}
	secret, err := p.store.LinkSecret(ctx)
	if err != nil {
		return linkContext{}, fmt.Errorf("link secret: %w", err)
	}
	lc := linkContext{custID: custID, signer: kb.NewLinkSigner(secret), masks: make(map[string]string, len(proxies)), labels: root.Labels}
	for _, px := range proxies {
		lc.masks[px.ID] = px.URLMask
	}
	return lc, nil
}

// answer is the resolution in its JSON form: each link a signed,
// counted link-out of the resolver, with where it leads.
func (lc linkContext) answer(r *http.Request, res kb.Resolution) resolutionWire {
	out := resolutionWire{Citation: citationWireOf(res.Citation, res.MatchedBy), FullText: res.FullText(), Results: []resolvedWire{}}
	for _, x := range res.Results {
		rs := x.Resource
		key := kb.ResourceKey{PackageID: rs.PackageID, TitleID: x.Title.ID}
		w := resolvedWire{
			TitleID: x.Title.ID, TitleName: x.Title.Name, PackageID: rs.PackageID, PackageName: rs.PackageName,
			VendorName: rs.VendorName, Covered: x.Covered(), Reason: string(x.Reason),
			Coverage: coverageWires(kb.EffectiveCoverage(rs)), Links: []linkWire{},
		}
		if e := kb.EffectiveEmbargo(rs); e.Unit != kb.EmbargoNone {
			w.Embargo = &embargoWire{Unit: e.Unit.String(), Value: e.Value}
		}
		if x.Reason != kb.ReasonCovered {
			w.ReasonText = x.Reason.Words()
		}
		link := kb.ResourceLink{URL: rs.URL, VendorToken: rs.VendorToken, PackageToken: rs.PackageToken, ProxyMask: lc.masks[rs.Proxy.ID]}
		for _, l := range x.Links {
			token := lc.signer.SignLink(lc.custID, key, kb.LinkTarget{Via: kb.ViaResolver, DOI: l.DOI})
			w.Links = append(w.Links, linkWire{Level: string(l.Level), URL: pfapi.LinkOutURL(r, token), Target: kb.LinkTargetURL(link, l.DOI)})
		}
		out.Results = append(out.Results, w)
	}
	return out
}

// RequestLink returns the profile's interlibrary-loan request form with
// the citation appended as OpenURL 0.1 keys; "" when the profile has
// none.
func RequestLink(form string, c kb.Citation) string {
	if form == "" {
		return ""
	}
	u, err := url.Parse(form)
	if err != nil {
		return ""
	}
	q := u.Query()
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("genre", c.Genre)
	if len(c.ISSNs) > 0 {
		set("issn", c.ISSNs[0])
	}
	if len(c.ISBNs) > 0 {
		set("isbn", c.ISBNs[0])
	}
	set("title", c.Title)
	set("atitle", c.ArticleTitle)
	set("aulast", c.Author)
	set("date", c.Date)
	set("volume", c.Volume)
	set("issue", c.Issue)
	set("spage", c.StartPage)
	if c.DOI != "" {
		set("id", "doi:"+c.DOI)
	}
	set("sid", c.Source)
	u.RawQuery = q.Encode()
	return u.String()
}
