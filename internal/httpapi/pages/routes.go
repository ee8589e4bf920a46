// Package pages serves kbserver's pages for people: the landing page at
// GET /, the patron A–Z page of each publication search profile at
// /az/{profile}/, and the staff console at /console/. They are
// server-rendered (html/template, assets embedded), work without
// JavaScript and answer errors as pages.
//
// The A–Z page searches through the publication search service's own
// Searcher (package pfapi), with the service's query parameters, defaults
// and error messages, so that the page shows exactly what the API
// answers. A profile with guest access opens at once; another asks for
// its password once and then keeps a signed, HttpOnly session cookie.
package pages

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi/analysisapi"
	"github.com/kbserver/kbserver/internal/httpapi/holdingsapi"
	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Store is what the pages need from a store: the console reads and
// writes through the same methods as the holdings service and the
// resource management service; the A–Z page admits patrons by profile.
type Store interface {
	web.ProfileLookup
	kb.HoldingsWriter
	kb.ERMStore
	kb.SessionStore
	kb.ResolverStatsReader
	holdingsapi.HoldingsReader
	analysisapi.Store
	Customer(ctx context.Context, id string) (kb.Customer, error)
	Profiles(ctx context.Context, custID string) ([]kb.Profile, error)
	SetProfileRequestURL(ctx context.Context, id kb.ProfileID, url string) error
	Feeds(ctx context.Context) ([]kb.Feed, error)
	FeedHistory(ctx context.Context, id int64) (kb.Feed, []kb.FeedRun, error)
	LinkSecret(ctx context.Context) ([]byte, error)
	StartSnapshot(ctx context.Context, custID string, force bool) error
	SnapshotStatus(ctx context.Context, custID string) (kb.SnapshotStatus, error)
	Root(ctx context.Context, custID string) (kb.RootSettings, error)
	Proxies(ctx context.Context, custID string) ([]kb.Proxy, error)
	Package(ctx context.Context, custID string, vendorID, packageID int64) (kb.Package, error)
	Resource(ctx context.Context, custID string, vendorID, packageID, titleID int64) (kb.Title, error)
}

// Finder is what the console's lists ask the search service (package
// search's Service), as the holdings service's do.
type Finder interface {
	Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error)
	Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error)
	Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error)
}

// AZPath returns the path of a profile's A–Z page.
func AZPath(profile kb.ProfileID) string { return "/az/" + profile.String() + "/" }

// patronSessionTTL is how long a patron stays signed in to a password
// profile's A–Z page.
const patronSessionTTL = 12 * time.Hour

// Routes returns the routes of the pages over store, searching with s
// (the A–Z page) and finder (the console's lists);
// each A–Z request takes a token of its profile's bucket from throttle,
// as a publication search does, and the console signs in with the API
// keys of keys (whose rate limit applies to each console request). The
// console's holdings feeds page works through lib, its collection
// analysis through analyses; nil answers them 404.
func Routes(store Store, s *pfapi.Searcher, finder Finder, res Resolver, throttle web.Throttle, keys web.KeyAuth, lib *feeds.Library,
	analyses *analysis.Service) []web.Route {
	p := &pages{store: store, searcher: s, finder: finder, resolver: res, gate: web.NewProfileGate(store, throttle), keys: keys, lib: lib,
		analyses: analyses}
	routes := []web.Route{
		{Pattern: "GET /{$}", Handler: p.home},
		{Pattern: "GET /assets/{file}", Handler: serveAsset, Quiet: true},
		{Pattern: "GET /az/{profile}/{$}", Handler: web.OneValueEach(pfapi.RepeatableParams...)(p.az)},
		{Pattern: "POST /az/{profile}/signin", Handler: p.signIn},
		{Pattern: "GET /az/{profile}/signin", Handler: signInGet},
		{Pattern: "GET /az/{profile}/embed", Handler: p.embed},
		{Pattern: "GET /console/{$}", Handler: p.signedIn(p.consoleHome)},
		{Pattern: "POST /console/signin", Handler: p.consoleSignInPost},
		{Pattern: "GET /console/signin", Handler: consoleSignInGet},
		{Pattern: "POST /console/signout", Handler: p.signedIn(p.consoleSignOut)},
		{Pattern: "GET /console/search", Handler: p.signedIn(p.consoleSearch)},
		{Pattern: "GET /console/history", Handler: p.signedIn(p.consoleHistory)},
		{Pattern: "GET /console/packages/{vendorid}/{packageid}", Handler: p.signedIn(p.consolePackage)},
		{Pattern: "POST /console/packages/{vendorid}/{packageid}", Handler: p.signedIn(p.consolePackage)},
		{Pattern: "GET /console/resources/{vendorid}/{packageid}/{titleid}", Handler: p.signedIn(p.consoleResource)},
		{Pattern: "POST /console/resources/{vendorid}/{packageid}/{titleid}", Handler: p.signedIn(p.consoleResource)},
		{Pattern: "POST /console/packages/new", Handler: p.signedIn(p.consoleNewPackage)},
		{Pattern: "POST /console/packages/{vendorid}/{packageid}/titles", Handler: p.signedIn(p.consoleNewTitle)},
		{Pattern: "GET /console/settings", Handler: p.signedIn(p.consoleSettings)},
		{Pattern: "POST /console/settings", Handler: p.signedIn(p.consoleSettings)},
		{Pattern: "GET /console/snapshot", Handler: p.signedIn(p.consoleSnapshot)},
		{Pattern: "POST /console/snapshot", Handler: p.signedIn(p.consoleSnapshot)},
		{Pattern: "GET /console/snapshot/kbart", Handler: p.signedIn(p.consoleSnapshotFile)},
		{Pattern: "GET /console/erm/{$}", Handler: p.signedIn(p.consoleERM)},
		{Pattern: "GET /console/erm/{kind}", Handler: p.signedIn(p.consoleERM)},
		{Pattern: "POST /console/erm/{kind}", Handler: p.signedIn(p.consoleERM)},
		{Pattern: "GET /console/erm/{kind}/{id}", Handler: p.signedIn(p.consoleERMObject)},
		{Pattern: "POST /console/erm/{kind}/{id}", Handler: p.signedIn(p.consoleERMObject)},
		{Pattern: "POST /console/erm/{kind}/{id}/delete", Handler: p.signedIn(p.consoleERMDelete)},
		{Pattern: "POST /console/erm/assign", Handler: p.signedIn(p.consoleAssign)},
		{Pattern: "POST /console/erm/assignments/{id}/delete", Handler: p.signedIn(p.consoleUnassign)},
		{Pattern: "GET /console/resolver", Handler: p.signedIn(p.consoleResolver)},
		{Pattern: "GET /console/resolver/statistics.csv", Handler: p.signedIn(p.consoleResolverStatsCSV)},
		{Pattern: "GET /console/resolver/unmet.csv", Handler: p.signedIn(p.consoleResolverUnmetCSV)},
		{Pattern: "GET /console/resolver/setup", Handler: p.signedIn(p.consoleResolverSetup)},
		{Pattern: "POST /console/resolver/setup", Handler: p.signedIn(p.consoleResolverSetup)},
		{Pattern: "GET /console/feeds", Handler: p.signedIn(p.withFeeds(p.consoleFeeds))},
		{Pattern: "POST /console/feeds", Handler: p.signedIn(p.withFeeds(p.consoleFeeds))},
		{Pattern: "GET /console/feeds/{feedid}", Handler: p.signedIn(p.withFeeds(p.consoleFeed))},
		{Pattern: "POST /console/feeds/{feedid}/run", Handler: p.signedIn(p.withFeeds(p.consoleFeedRun))},
		{Pattern: "POST /console/feeds/{feedid}/remove", Handler: p.signedIn(p.withFeeds(p.consoleFeedRemove))},
		{Pattern: "GET /console/feeds/{feedid}/runs/{runid}", Handler: p.signedIn(p.withFeeds(p.consoleFeedReview))},
		{Pattern: "POST /console/feeds/{feedid}/runs/{runid}/approve", Handler: p.signedIn(p.withFeeds(p.consoleFeedApprove))},
		{Pattern: "GET /console/analysis", Handler: p.signedIn(p.withAnalysis(p.consoleCompare))},
		{Pattern: "GET /console/analysis/against", Handler: p.signedIn(p.withAnalysis(p.consoleAgainst))},
		{Pattern: "GET /console/analysis/titles", Handler: p.signedIn(p.withAnalysis(p.consoleAnalysisTitles))},
		{Pattern: "GET /console/analysis/titles.csv", Handler: p.signedIn(p.withAnalysis(p.consoleAnalysisTitlesCSV))},
		{Pattern: "GET /console/analysis/duplicates", Handler: p.signedIn(p.withAnalysis(p.consoleDuplicates))},
		{Pattern: "GET /console/analysis/duplicates.csv", Handler: p.signedIn(p.withAnalysis(p.consoleDuplicatesCSV))},
		{Pattern: "GET /console/analysis/use", Handler: p.signedIn(p.withAnalysis(p.consoleUse))},
	}
	for i := range routes {
		routes[i].ErrorPage = ErrorPage
	}
	// The link resolver answers its errors as the answer is asked for:
	// JSON, or a page.
	for _, method := range []string{"GET", "POST"} {
		routes = append(routes, web.Route{Pattern: method + " /openurl/{profile}", Handler: p.openURL, ErrorPage: ErrorPage, JSONErrors: wantsJSON, Service: ServiceResolver})
	}
	return routes
}

// pages holds what the page handlers share.
type pages struct {
	store    Store
	searcher *pfapi.Searcher
	finder   Finder
	resolver Resolver
	gate     *web.ProfileGate
	keys     web.KeyAuth       // the console signs in with API keys
	lib      *feeds.Library    // the libraries' holdings feeds; nil: none
	analyses *analysis.Service // the collection analysis; nil: none
}

// patronSessions returns the issuer of patron session cookies, keyed by
// the store's secret (which the store keeps in memory).
func (p *pages) patronSessions(ctx context.Context) (*sessions, error) {
	secret, err := p.store.LinkSecret(ctx)
	if err != nil {
		return nil, fmt.Errorf("the store's secret: %w", err)
	}
	return newSessions(secret, "patron", patronSessionTTL), nil
}

// home serves the landing page: the services, the API documentation, and
// the A–Z pages of the profiles with guest access.
func (p *pages) home(w http.ResponseWriter, r *http.Request) error {
	profiles, err := p.store.Profiles(r.Context(), "")
	if err != nil {
		return err
	}
	type entry struct {
		Name, Href string
		Guest      bool
	}
	data := struct {
		frame
		Profiles []entry
	}{frame: frame{Title: "kbserver", Brand: "kbserver", Home: "/"}}
	// Only the open ones: a password profile's existence is not
	// announced (its page answers an unknown profile the same way).
	for _, pr := range profiles {
		if pr.Guest {
			data.Profiles = append(data.Profiles, entry{Name: pr.ID.String(), Href: AZPath(pr.ID), Guest: true})
		}
	}
	return render(w, http.StatusOK, "home", data)
}
