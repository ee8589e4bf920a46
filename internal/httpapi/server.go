// Package httpapi assembles kbserver's HTTP server: it mounts the routes of
// every API family and of the operators' endpoints (health, readiness,
// metrics) on one ServeMux, sets up authentication, environments and rate
// limits, and wraps it all with the shared middleware of package web
// (request log and metrics, panic recovery, body limit, JSON answers for
// unknown routes and wrong methods).
package httpapi

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/answercache"
	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/httpapi/analysisapi"
	"github.com/kbserver/kbserver/internal/httpapi/docs"
	"github.com/kbserver/kbserver/internal/httpapi/ermapi"
	"github.com/kbserver/kbserver/internal/httpapi/feedapi"
	"github.com/kbserver/kbserver/internal/httpapi/holdingsapi"
	"github.com/kbserver/kbserver/internal/httpapi/opsapi"
	"github.com/kbserver/kbserver/internal/httpapi/pages"
	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/resolverapi"
	"github.com/kbserver/kbserver/internal/httpapi/scholarapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/metrics"
	"github.com/kbserver/kbserver/internal/ratelimit"
	"github.com/kbserver/kbserver/internal/resolver"
)

// DefaultMaxBodyBytes is the request body limit when Deps names none.
const DefaultMaxBodyBytes int64 = 1 << 20

// Deps are the server's dependencies.
type Deps struct {
	// Store holds the knowledge base, customers and their keys.
	Store Store
	// Logger receives one line per request and every internal error;
	// nil means slog.Default().
	Logger *slog.Logger
	// MaxBodyBytes limits request bodies; 0 or less means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Environment is the environment the server runs as: only API keys
	// of that environment are admitted. "" means kb.Production.
	Environment kb.Environment
	// KeyLimit limits the requests of each API key to the holdings and
	// resource management services; ProfileLimit those of each
	// publication search profile. Zero limits nothing.
	KeyLimit     web.Limit
	ProfileLimit web.Limit
	// Limiter keeps the limits' token buckets. nil means the store's
	// when it implements kb.RateStore (shared by every instance over
	// it), and else this process's memory.
	Limiter kb.RateStore
	// Metrics records the requests; nil means a new metrics.New over
	// Store. With MetricsElsewhere, GET /metrics is not served here (the
	// caller serves Metrics.Handler on a listener of its own).
	Metrics          *metrics.Metrics
	MetricsElsewhere bool
	// Wire chooses the shapes of the holdings service where its spec and
	// the hosted service disagree (errors, the proxies list); "" means
	// web.WireSpec.
	Wire web.Wire
	// AnswerCacheBytes bounds the memory of the holdings service's cache
	// of finished answers (a vendor, package, title or resource, valid
	// while the customer's store version is current); 0 means
	// DefaultAnswerCacheBytes and less than 0 keeps no answers.
	AnswerCacheBytes int64
	// ResolverRecorder keeps the link resolver's statistics; nil keeps
	// none.
	ResolverRecorder kb.ResolverRecorder
	// ScholarFiles keeps the holdings files of Google Scholar's library
	// links; nil means a new scholarapi.Files over a temporary directory
	// with the default budget, which nothing removes: a server that
	// serves them for long should pass its own and close it.
	ScholarFiles *scholarapi.Files
	// Feeds is the service of the libraries' own holdings feeds; nil
	// means one over Store (when it keeps feeds) with a lease holder of
	// its own, whose runs are counted by no metrics.
	Feeds *feeds.Library
}

// Store is what the server needs of a store: the union of what each API
// family declares it uses (kb.Store implements it).
type Store interface {
	holdingsapi.Store
	ermapi.Store
	pfapi.Store
	pages.Store
	kb.ResolverStore
	resolverapi.Store
	scholarapi.Store
	analysisapi.Store
	kb.OpsStore
}

// DefaultAnswerCacheBytes is the answer cache's budget when Deps names
// none: 64 MiB, some 20,000 answers of titles with a dozen resources.
const DefaultAnswerCacheBytes int64 = 64 << 20

// Service names, in logs and metrics.
const (
	ServiceHoldings          = "holdings"
	ServiceResourceMgmt      = "resource-management"
	ServicePublicationSearch = "publication-search"
	ServiceDocs              = "docs"
	ServicePages             = "pages"
	ServiceResolver          = pages.ServiceResolver
	ServiceLibraryLinks      = "library-links"
)

// NewServer returns the HTTP handler of all of kbserver's APIs over
// deps.Store, every search of every service going through finder, the
// search service over that store (finder.New). A server without a
// store (deps.Store nil) serves only what needs none, and may have no
// search service either.
func NewServer(finder *finder.Service, deps Deps) http.Handler {
	if deps.Store != nil && finder == nil {
		panic("httpapi.NewServer: no search service over the store: every search goes through one (finder.New)")
	}
	logger := deps.Logger
	if logger == nil {
		logger = slog.Default()
	}
	maxBody := deps.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	if deps.Limiter == nil {
		if rs, ok := deps.Store.(kb.RateStore); ok {
			deps.Limiter = rs
		} else {
			deps.Limiter = ratelimit.NewMemory()
		}
	}
	m := deps.Metrics
	if m == nil {
		m = metrics.New(deps.Store, logger)
	}
	if deps.AnswerCacheBytes == 0 {
		deps.AnswerCacheBytes = DefaultAnswerCacheBytes
	}
	answers := answercache.New(deps.AnswerCacheBytes)
	if answers != nil {
		m.WatchAnswerCache(answers.Stats)
	}
	if kt, ok := deps.Store.(interface{ KeptTitleStats() (int64, int64) }); ok {
		m.WatchKeptTitles(kt.KeptTitleStats)
	}
	// The hosted service's v2 routes cannot share a ServeMux with the
	// others (web.V2Prefix).
	mux := web.MountSplit(web.V2Prefix, logger, routes(deps, finder, logger, m, answers), errorStyles()...)
	return web.SpeakWire(deps.Wire, web.Serve(mux, logger, maxBody, m))
}

// routes returns the routes of every API family over deps, each marked
// with its service: the holdings service, the resource management service,
// the publication search service, the pages for people (landing and A–Z),
// the API description with its docs page,
// and the operators' endpoints (with /metrics when m is not nil).
func routes(deps Deps, search *finder.Service, logger *slog.Logger, m *metrics.Metrics, answers *answercache.Cache) []web.Route {
	store := deps.Store
	keys := web.KeyAuth{
		Keys:        store,
		Environment: deps.Environment,
		Throttle:    web.Throttle{Limiter: deps.Limiter, Limit: deps.KeyLimit, Logger: logger},
	}
	keyAuth := web.RequireCustomerKey(keys)
	profileThrottle := web.Throttle{Limiter: deps.Limiter, Limit: deps.ProfileLimit, Logger: logger}
	var metricsHandler http.Handler
	if m != nil && !deps.MetricsElsewhere {
		metricsHandler = m.Handler()
	}
	var all []web.Route
	add := func(service string, rs []web.Route) {
		for i := range rs {
			if rs[i].Service == "" {
				rs[i].Service = service
			}
		}
		all = append(all, rs...)
	}
	// A nil *finder.Service in an interface would not be nil: the
	// route listing (Routes) has neither store nor search service.
	var finder interface {
		holdingsapi.Finder
		pfapi.Finder
	}
	var ready opsapi.Readiness
	if search != nil {
		finder, ready = search, search
	}
	add(ServiceHoldings, holdingsapi.Routes(store, finder, keyAuth, answers))
	add(ServiceResourceMgmt, ermapi.Routes(store, keyAuth))
	add(ServiceHoldings, resolverapi.Routes(store, keyAuth))
	lib := deps.Feeds
	if ls, ok := store.(feeds.LibraryStore); ok && lib == nil {
		lib = feeds.NewLibrary(feeds.Deps{Log: logger}, ls, feeds.NewHolder())
	}
	add(ServiceHoldings, feedapi.Routes(lib, keyAuth))
	var analyses *analysis.Service
	if as, ok := store.(analysis.Store); ok && search != nil {
		analyses = analysis.New(as, search)
	}
	add(ServiceHoldings, analysisapi.Routes(analyses, store, keyAuth))
	searcher := pfapi.NewSearcher(store, finder)
	add(ServicePublicationSearch, pfapi.Routes(searcher, profileThrottle))
	add(ServicePages, pages.Routes(store, searcher, finder, resolver.New(search, store, deps.ResolverRecorder), profileThrottle, keys, lib, analyses))
	scholarFiles := deps.ScholarFiles
	if scholarFiles == nil {
		scholarFiles = scholarapi.NewFiles("", 0, logger)
	}
	add(ServiceLibraryLinks, scholarapi.Routes(store, scholarFiles, profileThrottle, logger))
	add(ServiceDocs, docs.Routes())
	add(opsapi.Service, opsapi.Routes(store, ready, metricsHandler, logger))
	return all
}

// RouteInfo describes one route that NewServer registers.
type RouteInfo struct {
	// Pattern is the ServeMux pattern, e.g. "GET /rm/rmaccounts/{custid}/vendors".
	Pattern string
}

// Routes lists every route NewServer registers, in registration order. The
// tests compare it with the API description in package api.
func Routes() []RouteInfo {
	rs := routes(Deps{}, nil, slog.Default(), metrics.New(nil, nil), nil)
	out := make([]RouteInfo, len(rs))
	for i, r := range rs {
		out[i] = RouteInfo{Pattern: r.Pattern}
	}
	return out
}

// errorStyles are how each service answers the paths it has no route
// for (404) or a method it does not take (405): as its own errors are.
// The publication search service and the resource management service
// answer with no body (the message in X-Error-Message), the pages with a
// page, and everything else (the holdings service, the operators'
// endpoints, unknown paths elsewhere) with a JSON error array.
func errorStyles() []web.ErrorStyle {
	ermPaths := []string{"assignment"}
	for _, k := range ermapi.Kinds() {
		ermPaths = append(ermPaths, k.Path)
	}
	erm := func(path string) bool {
		rest, ok := strings.CutPrefix(path, "/rm/rmaccounts/")
		if !ok || strings.HasPrefix(path, web.V2Prefix) { // the holdings service's v2 lists
			return false
		}
		_, rest, ok = strings.Cut(rest, "/") // the customer
		if !ok {
			return false
		}
		segment, _, _ := strings.Cut(rest, "/")
		return slices.Contains(ermPaths, segment)
	}
	return []web.ErrorStyle{
		{Match: func(path string) bool { return path == "/pf" || strings.HasPrefix(path, "/pf/") }, HeaderErrors: true},
		{Match: erm, HeaderErrors: true},
		{Match: pages.Paths, Page: pages.ErrorPage},
	}
}
