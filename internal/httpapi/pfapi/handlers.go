package pfapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"golang.org/x/text/language"
)

// Store is what the publication search service needs from a store;
// kb.Store implements it.
type Store interface {
	web.ProfileLookup
	LinkOutStore
	// Publication returns a title with only its resource in the package,
	// CodeNotFound unless that resource is in the collection.
	Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error)
	Root(ctx context.Context, custID string) (kb.RootSettings, error)
	Proxies(ctx context.Context, custID string) ([]kb.Proxy, error)
}

type handlers struct {
	*Searcher
}

// customer returns the customer id of the profile the request was admitted for.
func customer(r *http.Request) string {
	p, _ := web.ProfileFrom(r.Context())
	return p.CustomerID
}

// recordContext gathers what records of the customer need: labels, proxy
// masks and the link-out signer.
func (h *Searcher) recordContext(r *http.Request, custID string) (recordContext, error) {
	ctx := r.Context()
	root, err := h.store.Root(ctx, custID)
	if err != nil {
		return recordContext{}, fmt.Errorf("root settings of %s: %w", custID, err)
	}
	proxies, err := h.store.Proxies(ctx, custID)
	if err != nil {
		return recordContext{}, fmt.Errorf("proxies of %s: %w", custID, err)
	}
	secret, err := h.store.LinkSecret(ctx) // the store keeps it in memory
	if err != nil {
		return recordContext{}, fmt.Errorf("link secret: %w", err)
	}
	signer := kb.NewLinkSigner(secret)
	masks := make(map[string]string, len(proxies))
	for _, p := range proxies {
		masks[p.ID] = p.URLMask
	}
	return recordContext{
		custID: custID,
		labels: root.Labels,
		masks:  masks,
		linkOut: func(k kb.ResourceKey) string {
			return LinkOutURL(r, signer.Sign(custID, k))
		},
	}, nil
}

// RequestLocale is the collation locale of a publication search: the
// language (its base alone: "fr" of "fr-CA", so that clients cannot make
// the server sort a collection for every variant they invent) of the first
// entry of Accept-Language that is a valid tag, else English.
func RequestLocale(r *http.Request) *alpha.Locale {
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if tag == "" || tag == "*" {
			continue
		}
		t, err := language.Parse(tag)
		if err != nil {
			continue
		}
		base, _ := t.Base()
		if loc, err := alpha.ParseLocale(base.String()); err == nil {
			return loc
		}
	}
	loc, _ := alpha.ParseLocale("en")
	return loc
}

func (h *handlers) publications(w http.ResponseWriter, r *http.Request) error {
	start := time.Now()
	params := web.NewQuery(r)
	q, choice, err := pubQuery(params)
	if err != nil {
		return err
	}
	custID := customer(r)
	res, err := h.Search(r, custID, q)
	if err != nil {
		return fmt.Errorf("publication search of %s: %w", custID, err)
	}
	session := params.Get("sessionid")
	out := publicationSearchResult{
		SearchRequestGet: searchRequestGet{
			RequestParams:             requestParams{SessionID: session, CustomerID: numericID(custID)},
			SearchCriteriaWithActions: searchCriteriaWithActions{QueriesWithAction: []queryWithAction{}},
		},
		SearchResult: searchResultWire{
			Sessiondetails: sessionDetails{SessionID: session},
			Statistics:     statistics{TotalHits: res.Total},
			Data:           dataWire{RecordFormat: "PF", Records: make([]recordWire, len(res.Titles))},
		},
	}
	if q.Search != "" {
		out.SearchRequestGet.SearchCriteriaWithActions.QueriesWithAction = append(out.SearchRequestGet.SearchCriteriaWithActions.QueriesWithAction,
			queryWithAction{Query: queryWire{BooleanOperator: "AND", Term: q.Search}})
	}
	if len(res.Titles) > 0 {
		rc, err := h.recordContext(r, custID)
		if err != nil {
			return err
		}
		for i, t := range res.Titles {
			out.SearchResult.Data.Records[i] = rc.record(t)
		}
	}
	if f := res.Facets; f != nil {
		fw := &facetsWire{
			Subjects:       make([]subjectFacet, len(f.Subjects)),
			ResourceTypes:  make([]resourceTypeFacet, len(f.ResourceTypes)),
			Packages:       make([]packageFacet, len(f.Packages)),
			AlphaMenus:     make([]alphaMenuFacet, len(f.AlphaMenus)),
			IsPeerReviewed: make([]peerReviewedFacet, len(f.PeerReviewed)),
		}
		for i, s := range f.Subjects {
			fw.Subjects[i] = subjectFacet{SubjectName: s.Name, Count: s.Count, ID: s.ID, ParentID: s.ParentID}
		}
		for i, t := range f.ResourceTypes {
			fw.ResourceTypes[i] = resourceTypeFacet{ResourceTypes: t.Type.String(), Count: t.Count}
		}
		for i, p := range f.Packages {
			fw.Packages[i] = packageFacet{ID: strconv.FormatInt(p.ID, 10), Package: p.Name, Count: p.Count}
		}
		for i, m := range f.AlphaMenus {
			fw.AlphaMenus[i] = alphaMenuFacet{AlphaMenu: m.Menu, Count: m.Count}
		}
		for i, p := range f.PeerReviewed {
			fw.IsPeerReviewed[i] = peerReviewedFacet{IsPeerReviewed: p.PeerReviewed, Count: p.Count}
		}
		if !choice.all {
			fw.Subjects, fw.ResourceTypes, fw.Packages, fw.AlphaMenus = []subjectFacet{}, []resourceTypeFacet{}, []packageFacet{}, []alphaMenuFacet{}
		}
		if !choice.peer {
			fw.IsPeerReviewed = []peerReviewedFacet{}
		}
		out.Facets = fw
	}
	out.SearchResult.Statistics.TotalSearchTime = time.Since(start).Milliseconds()
	return web.WriteJSON(w, http.StatusOK, out)
}

// publication answers one publication record: the title with only its
// resource in the package.
func (h *handlers) publication(w http.ResponseWriter, r *http.Request) error {
	packageID, err := web.PathID(r, "packageid")
	if err != nil {
		return err
	}
	titleID, err := web.PathID(r, "kbid")
	if err != nil {
		return err
	}
	custID := customer(r)
	t, err := h.store.Publication(r.Context(), custID, packageID, titleID)
	if err != nil {
		return fmt.Errorf("publication %d/%d of %s: %w", packageID, titleID, custID, err)
	}
	rc, err := h.recordContext(r, custID)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, rc.record(t))
}

func (h *handlers) allPackages(w http.ResponseWriter, r *http.Request) error {
	ct, err := web.Enum(web.NewQuery(r), "contenttype", kb.ContentAll, web.ParseContentType)
	if err != nil {
		return err
	}
	custID := customer(r)
	l, err := h.finder.CollectionPackages(r.Context(), custID, kb.CollectionPackageQuery{ContentType: ct, ByName: true})
	if err != nil {
		return fmt.Errorf("packages of %s: %w", custID, err)
	}
	out := allPackagesResult{PackagesList: make([]allPackage, len(l.Packages)), TotalResults: l.Total}
	for i, p := range l.Packages {
		out.PackagesList[i] = allPackage{PackageID: p.ID, PackageName: p.Name, ContentType: contentType(p.ContentType)}
	}
	return web.WriteJSON(w, http.StatusOK, out)
}

func (h *handlers) packages(w http.ResponseWriter, r *http.Request) error {
	params := web.NewQuery(r)
	var q kb.CollectionPackageQuery
	var err error
	if q.ContentType, err = web.Enum(params, "contenttype", kb.ContentAll, web.ParseContentType); err != nil {
		return err
	}
	order, err := web.OrderBy(params, "packagename")
	if err != nil {
		return err
	}
	q.ByName = order == kb.OrderName
	if q.Page, err = web.Page(params, kb.PubDefaultCount); err != nil {
		return err
	}
	if q.Search, err = web.Search(params, "search"); err != nil {
		return err
	}
	custID := customer(r)
	l, err := h.finder.CollectionPackages(r.Context(), custID, q)
	if err != nil {
		return fmt.Errorf("packages of %s: %w", custID, err)
	}
	out := packagesResult{PackagesList: make([]psmPackage, len(l.Packages)), TotalResults: l.Total}
	for i, p := range l.Packages {
		out.PackagesList[i] = toPSMPackage(p)
	}
	return web.WriteJSON(w, http.StatusOK, out)
}

// alphaResourceType reads the parameter name's value as the alpha menu's
// resource type: book (0) or journal (1).
func alphaResourceType(name, value string) (kb.ResourceType, error) {
	switch strings.ToLower(value) {
	case "book", "0":
		return kb.ResourceBook, nil
	case "journal", "1":
		return kb.ResourceJournal, nil
	}
	return 0, kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are book, journal (or 0-1).", name, value)
}

func (h *handlers) alphaMenu(w http.ResponseWriter, r *http.Request) error {
	loc, err := alpha.ParseLocale(r.PathValue("localeid"))
	if err != nil {
		return kb.Errorf(kb.CodeInvalid, "Parameter localeid: %v", err)
	}
	params := web.NewQuery(r)
	s := params.Get("menuid")
	if s == "" {
		return kb.Errorf(kb.CodeInvalid, "Parameter menuid is required: a positive number such as 1 (0-9), 2 (A) … 28 (Other).")
	}
	menuID, err := alpha.ParseMenuID(s)
	if err != nil {
		return kb.Errorf(kb.CodeInvalid, "%v", err)
	}
	menu, err := loc.NewMenu(menuID)
	if err != nil {
		return kb.Errorf(kb.CodeInvalid, "%v", err)
	}
	rt, err := web.Enum(params, "resourcetype", kb.ResourceAll, alphaResourceType)
	if err != nil {
		return err
	}
	custID := customer(r)
	if err := h.Menu(r.Context(), custID, rt, menu); err != nil {
		return fmt.Errorf("alpha menu of %s: %w", custID, err)
	}
	res := menu.Result()
	items := func(is []alpha.Item) []alphaMenuItem {
		out := make([]alphaMenuItem, len(is))
		for i, it := range is {
			out[i] = alphaMenuItem{MenuID: it.MenuID, Characters: it.Characters, Order: it.Order, Count: it.Count}
		}
		return out
	}
	return web.WriteJSON(w, http.StatusOK, alphaMenuResult{
		Position0: items(res[0]), Position1: items(res[1]), Position2: items(res[2]), Position3: items(res[3]),
	})
}
