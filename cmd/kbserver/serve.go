package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"net"
	"net/http"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/pages"
	"github.com/kbserver/kbserver/internal/httpapi/scholarapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
	"github.com/kbserver/kbserver/internal/metrics"
	"github.com/kbserver/kbserver/internal/resolverstats"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/store"
)

// The demo customer that serve --demo creates.
const (
	demoCustomer     = "demo"
	demoCustomerName = "Demo Library"
)

// shutdownTimeout bounds the graceful shutdown on SIGINT or SIGTERM.
const shutdownTimeout = 10 * time.Second

type serveOptions struct {
	addr       string
	demo       bool
	demoTitles int
	answerMB   int    // the holdings service's answer cache, MiB; 0: off
	keptTitles int    // finished titles of search pages the store keeps
	indexFile  string // where the index is kept between runs; "auto": beside a SQLite file
	searchWait time.Duration
	feedsEvery time.Duration
	// feedsPrivate lets the libraries' own holdings feeds fetch from
	// addresses that are not public.
	feedsPrivate bool
	tlsCert      string
	tlsKey       string
	insecureHTTP bool
	environment  string // "" until resolved: sandbox with --demo, else production
	keyLimit     web.Limit
	profileLimit web.Limit
	logFormat    string
	logLevel     string
	metricsAddr  string
	debugPprof   bool
	wire         string // web.WireSpec or web.WireHosted

	// reportRetention is how long holdings transactions (and deltas)
	// are kept.
	reportRetention time.Duration
}

// Default rate limits: generous for a library system's integration (a
// sync walks lists page by page) and for a busy library's A-Z page, which
// all its patrons share through one profile.
const (
	defaultKeyRate      = 20
	defaultKeyBurst     = 100
	defaultProfileRate  = 50
	defaultProfileBurst = 200
)

func serveCommand() *command {
	return &command{
		name:    "serve",
		summary: "run the HTTP API server",
		usesDB:  true,
		about: `Serve runs the HTTP API over the knowledge base in --db until it receives
SIGINT or SIGTERM, then shuts down gracefully (waiting up to 10s for
requests in flight). It logs one line per request to stderr (text, or
JSON with --log-format json): method, path, route pattern, status,
duration and customer id, never an API key, a password or a query
(successful /healthz, /readyz and /metrics requests at debug level).

Without --tls-cert and --tls-key, serve speaks plain HTTP and only on a
loopback address (127.0.0.1, ::1, localhost): anything else is refused
unless --insecure-http says a TLS-terminating proxy is in front (see
docs/nginx). With them it serves HTTPS (TLS 1.2 or newer, HTTP/2),
reloading the files within a minute of their change (certificate
renewals need no restart).

--wire hosted answers as the hosted service does where its specification
differs, for clients written against the hosted service such as FOLIO:
JSON errors in its envelopes ({"errors":[{"code","subCode","message"}]},
capitalised or with string codes where it answers so) instead of a
bare array, GET proxies as a bare array instead of {"proxies":[…]}, and
the v2 package lists with the operator flags also under the hosted
service's names (allowEbscoToAddTitles, isOrderedThroughEbsco).

--environment says whether this server is the sandbox or production: it
admits only the API keys of its environment ("kbserver apikey add
--environment"). Each API key, and each publication search profile, has
a token bucket of --rate-limit requests a second with bursts of
--rate-burst (--pf-rate-limit and --pf-rate-burst for profiles); over it,
requests are answered 429 with Retry-After. On PostgreSQL the buckets are
shared by every instance over the database; on SQLite they are the
process's. 0 turns a limit off.

Each publication search profile also has its A–Z page (/az/{profile}/),
its link resolver (/openurl/{profile}, the OpenURL base to register with
the databases that cite) and Google Scholar's library links
(/scholar/{profile}/institutional_links.xml); the resolver's statistics
are counted in memory, written every 10 s and when the server stops.

GET /healthz answers while the process serves, GET /readyz while its
store answers with a current schema (the log says why not), GET /metrics
in the Prometheus format; they need no key. --metrics-addr moves /metrics
to an address of its own, for a server that faces its clients directly;
with --debug-pprof it also serves Go's profiles there (/debug/pprof/, e.g.
go tool pprof http://ADDR/debug/pprof/profile?seconds=20), which the main
address never does.
With --pf-rate-limit on, slow checks of a profile's password are limited
to 1 a second in bursts of 10 (correct passwords are remembered).

Holdings transactions (POST reports/holdings, which FOLIO's transaction
loader uses) are kept, with their rows and the deltas between them, for
--report-retention (14 days by default: FOLIO loads every 5 days and
asks for a delta from its previous transaction), then deleted.

Every flag can also be set by an environment variable: KBSERVER_ and the
flag's name in capitals with "-" as "_" (--rate-limit is
KBSERVER_RATE_LIMIT); a flag on the command line wins.

With --demo, a first start generates a demo knowledge base (100,000 invented
titles by default), creates the customer "demo" (Demo Library) with a few
packages selected and an EZProxy proxy, and every start prints a new API key
for it and a curl command to try. Keys are stored hashed, so an earlier key
cannot be shown again. A larger demo comes in two parts: the server starts
serving once the first (one package in so many, of every kind, with about
8,000 titles in all: a second or two) is in, and generates the rest in the
background (about half a minute for 100,000 titles; the log then says "demo
knowledge base complete"). A start that finds the demo unfinished takes it
up again.

The holdings service's title searches and publication search (its
facets and alpha menus too) are answered from an in-memory index of the
knowledge base (docs/search-engine.md), about 160 bytes a title and 8 more
per language that publication search orders names in (English is built
with the index, others at their first search); the store keeps no text
index of its own. It is built in the background at start. A search that
finds it older than the store catches up first: the titles an import or
a custom title's change touched (the store records them) are read again
into a small second index that every search merges with the first
(milliseconds); it is rebuilt in the background when that holds more
than 2,000 titles or 5,000 changes have passed (still answering
meanwhile), and when the store cannot name what changed (an import that
changed more than 10,000 titles, more than 20,000 titles changed since
the build). A customer's selection changes need no rebuild. Each build
from the store is written to --search-index-file (by default beside a
SQLite file, as FILE.search-index), which the next start reads instead
of building, catching it up with the titles changed since when the store
has changed (a file of another database, or older than the store's
records of its changes, is not read). While no current index is ready
(the first build without a file: about 14 s at 1M titles here; a
rebuild), searches wait for it, each at most --search-wait, then get 503
with Retry-After, and /readyz answers 503 until the first index is
ready. Publication searches are answered from the same index, in
the order of their language: the first search in a language whose
order is not built yet waits for it (seconds at 1M titles), as a search
waits for the index, at most --search-wait. (--pf-cache-titles and
--pf-stale, which sized and staled the collections read from the store
that once answered such searches, are still accepted and do nothing.)

The holdings service keeps the answers of single titles, resources,
vendors and packages it has built, up to --answer-cache-mb MiB (least
recently used go first; 0 keeps none). Each is served again only while
the store's version of the knowledge base and of the customer is the one
it was built at; every write that can change it (an import, a holdings
change, the root proxy, labels, proxies) changes that version in the
store, so every instance over one database sees it at its next request.
The finished titles of search pages are kept the same way, up to
--kept-titles of them (about 2.2 KB each).

Serve runs Go's garbage collector at GOGC=50 (the heap may grow to 1.5
times its live data, not 2 times) unless the environment sets GOGC: a
1.4M-title collection then peaks at 287 MB instead of 363-404 MB, at no
measured cost in speed. GOGC and GOMEMLIMIT in the environment apply as
in any Go program.`,
		example: "kbserver serve\n" +
			"kbserver serve --addr 127.0.0.1:8080 --db /var/lib/kbserver/kb.db\n" +
			"kbserver serve --demo --db demo.db\n" +
			"kbserver serve --addr 127.0.0.1:0   # any free port; the log says which\n" +
			"kbserver serve --addr :443 --tls-cert /etc/kbserver/cert.pem --tls-key /etc/kbserver/key.pem --environment production\n" +
			"KBSERVER_ADDR=127.0.0.1:8080 KBSERVER_LOG_FORMAT=json kbserver serve   # behind nginx on the same host",
		envFlags: true,
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var o serveOptions
			fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free port")
			fs.BoolVar(&o.demo, "demo", false, "generate a demo knowledge base and customer \"demo\" when missing, and print an API key for it")
			fs.IntVar(&o.demoTitles, "demo-titles", 100_000, "`number` of titles of a generated demo knowledge base")
			fs.Int("pf-cache-titles", 0, "no effect (publication search answers from the search index); accepted so that older command lines run: a `number`")
			fs.IntVar(&o.answerMB, "answer-cache-mb", int(httpapi.DefaultAnswerCacheBytes>>20), "`MiB` of finished answers (a title, resource, vendor or package) the holdings service keeps in memory, valid while the store's version is current; 0 keeps none")
			fs.IntVar(&o.keptTitles, "kept-titles", kbsql.DefaultKeptTitles, "`number` of finished titles of search pages (title searches the index answers, publication searches) kept in memory, each valid while the store's version is current; 0 keeps none")
			fs.DurationVar(&o.feedsEvery, "feeds-every", time.Minute, "how often the server looks for due package feeds and runs them (a `duration`; 0: never, for a server that leaves feeds to another)")
			fs.BoolVar(&o.feedsPrivate, "feeds-allow-private", false, "let the holdings feeds that libraries add themselves (API, console) fetch from loopback and private network addresses, as the operator's feeds may; for a closed network (by default they reach public addresses only)")
			fs.DurationVar(&o.searchWait, "search-wait", search.DefaultWait, "how long a title or publication search waits for the search index while it is being built (at start without its file, or rebuilt after a change the store cannot name) before it is refused with 503 and Retry-After (a `duration`)")
			fs.StringVar(&o.indexFile, "search-index-file", "auto", "`file` the search index is kept in between runs (read at start and caught up with the store's changes since, written after each build); auto: the SQLite file's name with .search-index added, none with PostgreSQL; \"\": none")
			fs.Bool("pf-stale", false, "no effect (publication search answers from the search index); accepted so that older command lines run")
			fs.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with the certificate chain in this PEM `file` (with --tls-key)")
			fs.StringVar(&o.tlsKey, "tls-key", "", "the private key of --tls-cert, a PEM `file`")
			fs.BoolVar(&o.insecureHTTP, "insecure-http", false, "allow plain HTTP on a non-loopback address, for a TLS-terminating proxy in front")
			fs.StringVar(&o.environment, "environment", "", "`sandbox or production`: admit only API keys of this environment (default sandbox with --demo, else production)")
			fs.Float64Var(&o.keyLimit.Rate, "rate-limit", defaultKeyRate, "`requests` a second each API key may make on average; 0 for no limit")
			fs.IntVar(&o.keyLimit.Burst, "rate-burst", defaultKeyBurst, "`requests` an API key may make at once")
			fs.Float64Var(&o.profileLimit.Rate, "pf-rate-limit", defaultProfileRate, "`requests` a second each publication search profile may take on average; 0 for no limit")
			fs.IntVar(&o.profileLimit.Burst, "pf-rate-burst", defaultProfileBurst, "`requests` a publication search profile may make at once")
			fs.StringVar(&o.logFormat, "log-format", "text", "log `format`: text or json")
			fs.StringVar(&o.logLevel, "log-level", "info", "the least `level` logged: debug, info, warn or error")
			fs.StringVar(&o.wire, "wire", string(web.WireSpec), "`spec or hosted`: answer errors, the proxies list and the v2 lists' operator flags as the specification shapes them, or as the hosted service does (for FOLIO and other clients of the hosted service)")
			fs.DurationVar(&o.reportRetention, "report-retention", kb.DefaultReportRetention, "how long holdings transactions and their deltas are kept (a `duration`, at least 1h; FOLIO loads every 5 days)")
			fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve GET /metrics on this `host:port` (plain HTTP, loopback unless --insecure-http) instead of the main address")
			fs.BoolVar(&o.debugPprof, "debug-pprof", false, "also serve Go's profiles (/debug/pprof/) on --metrics-addr, never on the main address")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("serve", "unexpected argument %q", args[0])
				}
				if err := o.check(); err != nil {
					return err
				}
				return c.serve(o)
			}
		},
	}
}

// check refuses flag values serve cannot run with, and resolves the
// default environment.
func (o *serveOptions) check() error {
	switch {
	case o.answerMB < 0 || o.answerMB > 1<<20:
		return usageErrorf("serve", "--answer-cache-mb must be between 0 (no cache) and %d", 1<<20)
	case o.keptTitles < 0 || o.keptTitles > maxKeptTitles:
		return usageErrorf("serve", "--kept-titles must be between 0 (none) and %d", maxKeptTitles)
	case o.demoTitles < 1 || o.demoTitles > gen.MaxTitles:
		return usageErrorf("serve", "--demo-titles must be between 1 and %d", gen.MaxTitles)
	case (o.tlsCert == "") != (o.tlsKey == ""):
		return usageErrorf("serve", "--tls-cert and --tls-key go together: give both files, or neither for plain HTTP")
	case o.tlsCert != "" && o.insecureHTTP:
		return usageErrorf("serve", "--insecure-http is for plain HTTP: it cannot go with --tls-cert")
	case o.reportRetention < time.Hour:
		return usageErrorf("serve", "--report-retention must be at least 1h (got %s): a transaction must outlive its build and its reading", o.reportRetention)
	case o.feedsEvery < 0:
		return usageErrorf("serve", "--feeds-every must be 0 (never) or a positive duration (got %s)", o.feedsEvery)
	case o.searchWait < time.Second || o.searchWait > 10*time.Minute:
		return usageErrorf("serve", "--search-wait must be between 1s and 10m (got %s)", o.searchWait)
	}
	for _, l := range []struct {
		name  string
		limit web.Limit
	}{{"rate", o.keyLimit}, {"pf-rate", o.profileLimit}} {
		if math.IsNaN(l.limit.Rate) || math.IsInf(l.limit.Rate, 0) || l.limit.Rate < 0 || l.limit.Rate > 0 && l.limit.Rate < kb.MinTokenRate {
			return usageErrorf("serve", "--%s-limit must be a number of requests a second, 0 (no limit) or at least %g", l.name, kb.MinTokenRate)
		}
		if l.limit.Rate > 0 && (l.limit.Burst < 1 || l.limit.Burst > kb.MaxTokenBurst) {
			return usageErrorf("serve", "--%s-burst must be from 1 to %d", l.name, kb.MaxTokenBurst)
		}
	}
	if _, err := web.ParseWire(o.wire); err != nil {
		return usageErrorf("serve", "--wire %q: use spec (the specification's shapes) or hosted (the hosted service's, for FOLIO)", o.wire)
	}
	if o.environment == "" {
		o.environment = string(kb.Production)
		if o.demo {
			o.environment = string(kb.Sandbox)
		}
	}
	if _, err := kb.ParseEnvironment(o.environment); err != nil {
		return usageErrorf("serve", "--environment %q: use sandbox or production", o.environment)
	}
	return nil
}

func (c *cli) serve(o serveOptions) error {
	if c.getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	logger, err := newLogger(c.stderr, o.logFormat, o.logLevel)
	if err != nil {
		return usageErrorf("serve", "%v", err)
	}
	// The stores log their background work (snapshot builds, statistics,
	// rate-bucket sweeps) through slog's default logger: make it this
	// one, so that --log-format and --log-level hold for every line.
	// SetDefault also sends the log package's output to it: both are put
	// back when serve returns.
	defer func(l *slog.Logger, w io.Writer, flags int) {
		slog.SetDefault(l)
		log.SetOutput(w)
		log.SetFlags(flags)
	}(slog.Default(), log.Writer(), log.Flags())
	slog.SetDefault(logger)
	env := kb.Environment(o.environment)
	var certs *certReloader
	if o.tlsCert != "" {
		if certs, err = newCertReloader(o.tlsCert, o.tlsKey, logger); err != nil {
			return err
		}
	}
	plainRefused := certs == nil && !o.insecureHTTP
	if plainRefused {
		// Refuse at once, before a long demo generation; the address
		// bound is checked again below.
		if err := checkLoopback(c.ctx, o.addr); err != nil {
			return err
		}
	}
	if o.debugPprof && o.metricsAddr == "" {
		return errors.New("--debug-pprof needs --metrics-addr: profiles are served only on the metrics address")
	}
	if o.metricsAddr != "" && !o.insecureHTTP {
		if err := checkLoopback(c.ctx, o.metricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
	}
	st, err := c.createStore()
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetReportRetention(o.reportRetention)
	// The store's background jobs (resuming snapshots and reports, the
	// reports' purge) run until the server stops, then end before the
	// store closes.
	jctx, stopJobs := context.WithCancel(c.ctx)
	var jobs runner
	defer func() {
		stopJobs()
		jobs.Wait()
	}()
	// The link resolver's statistics are counted in memory and written
	// by a job of their own every few seconds; the last counts are
	// written once the server has stopped taking requests.
	stats := resolverstats.New(st, logger)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := stats.Flush(ctx); err != nil {
			logger.Warn("link resolver statistics: the last counts were not stored", "err", err)
		}
	}()
	if err := jobs.Start(jctx, append(st.Jobs(), stats.Job())...); err != nil {
		return err
	}
	m := metrics.New(st, logger)
	feedDeps := feeds.Deps{Store: st, Log: logger, Observe: m.FeedRun, AllowPrivate: o.feedsPrivate}
	holder := feeds.NewHolder()
	if o.feedsEvery > 0 {
		// Due package feeds, each run by one server of those over the
		// store (a lease per feed). Not before the server starts: a
		// run may take minutes, and its failure is no reason not to
		// serve.
		jobs.Go(jctx, feeds.Job(feedDeps, holder, o.feedsEvery, false))
		jobs.Go(jctx, feeds.Job(feedDeps, holder, o.feedsEvery, true))
	}

	var demoKey string
	var growDemo func(context.Context) error
	if o.demo {
		if demoKey, growDemo, err = c.prepareDemo(st, o.demoTitles, env, logger); err != nil {
			return c.interrupted(err, "the demo was not set up (a new start resumes it)")
		}
	}

	st.KeepTitles(o.keptTitles)
	file := o.indexFile
	if file == "auto" {
		file = store.IndexFile(c.db)
	}
	ictx, stopIndex := context.WithCancel(c.ctx)
	searcher := finder.New(ictx, st, search.Options{Logger: logger, File: file, Wait: o.searchWait})
	searcher.Index().Start()
	defer func() { // before the store closes
		stopIndex()
		searcher.Index().Wait()
	}()

	ln, err := (&net.ListenConfig{}).Listen(c.ctx, "tcp", o.addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("listen on %s: the address is in use (another kbserver running?): stop that server, or choose another with --addr (or KBSERVER_ADDR), e.g. --addr 127.0.0.1:8081", o.addr)
	}
	if err != nil {
		return fmt.Errorf("listen on %s (--addr): %w", o.addr, err)
	}
	if plainRefused && !isLoopback(ln.Addr()) {
		ln.Close()
		return notLoopbackError(ln.Addr().String())
	}
	var metricsSrv *metricsServer
	if o.metricsAddr != "" {
		if metricsSrv, err = startMetrics(c.ctx, o.metricsAddr, !o.insecureHTTP, o.debugPprof, m, logger); err != nil {
			ln.Close()
			return err
		}
		defer metricsSrv.close()
	}
	// Google Scholar's holdings files, kept in a temporary directory
	// while the server runs.
	scholarFiles := scholarapi.NewFiles("", 0, logger)
	defer func() {
		if err := scholarFiles.Close(); err != nil {
			logger.Warn("remove the holdings files of Google Scholar", "err", err)
		}
	}()
	srv := &http.Server{
		Handler: httpapi.NewServer(searcher, httpapi.Deps{
			ScholarFiles:     scholarFiles,
			Metrics:          m,
			MetricsElsewhere: metricsSrv != nil,
			Store:            st,
			Logger:           logger,
			AnswerCacheBytes: answerCacheBytes(o.answerMB),
			Environment:      env,
			Wire:             web.Wire(o.wire),
			KeyLimit:         o.keyLimit,
			ProfileLimit:     o.profileLimit,
			ResolverRecorder: stats,
			Feeds:            feeds.NewLibrary(feedDeps, st, holder),
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	addr := ln.Addr().String()
	scheme := "http"
	if certs != nil {
		scheme = "https"
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: certs.get}
	}
	logger.Info("listening", "addr", addr, "scheme", scheme, "environment", string(env),
		"db", store.Redact(c.db), "rate_limit", describeLimit(o.keyLimit), "pf_rate_limit", describeLimit(o.profileLimit))
	served := make(chan error, 1)
	go func() {
		if certs != nil {
			served <- srv.ServeTLS(ln, "", "") // the certificate comes from TLSConfig
			return
		}
		served <- srv.Serve(ln)
	}()
	printBanner(c, st, scheme, addr)
	if o.demo {
		printDemo(c, demoKey, scheme, addr, env)
	}
	if growDemo != nil {
		// The rest of the demo, once the first part is searchable.
		jobs.Once(jctx, kb.Job{Name: "demo", Run: func(ctx context.Context) error {
			t := time.NewTicker(50 * time.Millisecond)
			defer t.Stop()
			for !searcher.Index().Ready() {
				select {
				case <-ctx.Done():
					return nil
				case <-t.C:
				}
			}
			return growDemo(ctx)
		}})
	}

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-c.ctx.Done():
	}
	logger.Info("shutting down")
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}

// demoProfile is the demo customer's guest publication search profile.
func demoProfile() kb.ProfileID {
	return kb.ProfileID{CustomerID: demoCustomer, GroupID: "main", ProfileID: "az"}
}

// prepareDemo makes sure the demo customer and the first part of the
// demo knowledge base exist and returns a new API key for the customer,
// and grow, which generates the second part, when it is not there yet.
func (c *cli) prepareDemo(st kb.Store, titles int, env kb.Environment, logger *slog.Logger) (key string, grow func(context.Context) error, err error) {
	d, err := newDemo(titles)
	if err != nil {
		return "", nil, err
	}
	_, err = st.Customer(c.ctx, demoCustomer)
	missing := false
	switch {
	case err == nil:
		logger.Info("demo customer exists: creating a new API key", "customer", demoCustomer)
		// A demo whose generation did not end (the server stopped
		// meanwhile) has fewer imports than packages: it is taken up
		// again, each part from its first package (those imported
		// already are imported again, unchanged, and selected again).
		// The count holds for a store that only --demo filled, with the
		// --demo-titles of its first start.
		stats, err := st.Stats(c.ctx)
		if err != nil {
			return "", nil, fmt.Errorf("demo: how many imports: %w", err)
		}
		missing = stats.Imports < int64(d.packages)
	case kb.ErrorCode(err) == kb.CodeNotFound:
		if err := setUpDemoCustomer(c.ctx, st, logger); err != nil {
			return "", nil, err
		}
		missing = true
	default:
		return "", nil, err
	}
	if missing {
		progress, finish := countProgress(c.stderr, "generating demo knowledge base", "resources")
		err := d.generate(c.ctx, st, true, logger, progress)
		finish()
		if err != nil {
			return "", nil, err
		}
		if d.stride > 1 {
			grow = func(ctx context.Context) error { return d.generate(ctx, st, false, logger, nil) }
		}
	}
	key = kb.NewAPIKey()
	if err := st.AddAPIKey(c.ctx, demoCustomer, kb.HashAPIKey(key), env); err != nil {
		return "", nil, fmt.Errorf("demo API key: %w", err)
	}
	// A guest publication search profile, so that the finder can be tried
	// without a password; one changed since (a password, no guests) is
	// left as it is.
	if _, err := st.LookupProfile(c.ctx, demoProfile()); kb.ErrorCode(err) == kb.CodeNotFound {
		if err := st.SaveProfile(c.ctx, kb.Profile{ID: demoProfile(), Guest: true}); err != nil {
			return "", nil, fmt.Errorf("demo profile: %w", err)
		}
	} else if err != nil {
		return "", nil, fmt.Errorf("demo profile: %w", err)
	}
	return key, grow, nil
}

// demoFirstResources is about how many resources (title-package pairs)
// the first part of a demo knowledge base holds: what a first start
// loads before it serves, about a second on a 2-core machine. The second
// part, the rest, is generated in the background once the first is
// searchable (BENCHMARKS.md, issue 39).
const demoFirstResources = 8_000

// demo is the plan of a demo knowledge base in two parts: the packages
// whose index in the plan is a multiple of stride, of every kind, then
// the others. A demo of up to demoFirstResources resources has one part
// (stride 1).
type demo struct {
	opts     gen.Options
	stride   int
	packages int // in both parts
}

// newDemo plans a demo knowledge base of the given number of titles.
// Each package takes the bulk path: the first part is loaded before the
// server serves, and the second part's packages are small, each a short
// transaction.
func newDemo(titles int) (demo, error) {
	d := demo{opts: gen.Options{Titles: titles, Seed: 1, Bulk: kb.BulkOn}}
	sizes, err := gen.PackageSizes(d.opts)
	if err != nil {
		return d, err
	}
	d.stride, d.packages = gen.Stride(sizes, demoFirstResources), len(sizes)
	return d, nil
}

// generate generates the first part of the demo knowledge base (first)
// or the second, and selects about one package in eight for the demo
// customer, each right after its import, one of them hidden.
func (d demo) generate(ctx context.Context, st kb.Store, first bool, logger *slog.Logger, progress func(done, total int)) error {
	o := d.opts
	s := d.stride
	o.Include = func(p int) bool { return (p%s == 0) == first }
	o.FirstLoad = first
	part := "first"
	if !first {
		part = "second"
	}
	if s == 1 {
		part = "whole"
	}
	selected := 0
	o.Imported = func(p int, id int64) error {
		if p%8 != 0 {
			return nil
		}
		state := kb.PackageState{Selected: true, Hidden: p == d.hidden()}
		if err := st.SetPackageState(ctx, demoCustomer, id, state); err != nil {
			return fmt.Errorf("demo selection: %w", err)
		}
		selected++
		return nil
	}
	logger.Info("generating the demo knowledge base", "titles", o.Titles, "part", part)
	sum, err := gen.Generate(ctx, st, o, progress)
	if err != nil {
		return err
	}
	logger.Info("demo knowledge base generated", "part", part, "vendors", sum.Vendors, "packages", len(sum.PackageIDs),
		"titles", sum.Titles, "resources", sum.Resources, "elapsed", sum.Elapsed.Round(time.Millisecond))
	if first && s > 1 {
		logger.Info("demo knowledge base: the first part is in, the second follows in the background", "customer", demoCustomer, "selected_packages", selected)
	} else {
		logger.Info("demo knowledge base complete", "customer", demoCustomer, "selected_packages", selected)
	}
	return nil
}

// setUpDemoCustomer creates the demo customer and its EZProxy proxy.
func setUpDemoCustomer(ctx context.Context, st kb.Store, logger *slog.Logger) error {
	if _, err := st.AddCustomer(ctx, demoCustomer, demoCustomerName); err != nil {
		return fmt.Errorf("demo customer: %w", err)
	}
	proxy := kb.Proxy{ID: "EZProxy", Name: "EZProxy", URLMask: "https://proxy.demo.example/login?url={targetURL}"}
	if err := st.AddProxy(ctx, demoCustomer, proxy); err != nil {
		return fmt.Errorf("demo proxy: %w", err)
	}
	logger.Info("demo customer created", "customer", demoCustomer)
	return nil
}

// hidden is the plan index of the demo's hidden package: the first
// selected one (a multiple of 8) after package 0 that the first part
// holds, else package 8.
func (d demo) hidden() int {
	for p := 8; p < d.packages; p += 8 {
		if p%d.stride == 0 {
			return p
		}
	}
	return 8
}

// baseURL returns the address a browser on this machine reaches the
// server at: the listening address, with the loopback address for one
// that listens on every interface.
func baseURL(scheme, addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err == nil && (ip == nil || ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// bannerProfiles is how many A–Z pages the start-up banner names; the
// landing page lists them all.
const bannerProfiles = 5

// printBanner prints where the server's pages are: the landing page, the
// API documentation and the A–Z pages of the first profiles.
func printBanner(c *cli, st kb.Store, scheme, addr string) {
	base := baseURL(scheme, addr)
	fmt.Fprintf(c.stdout, "kbserver is serving at %s (it keeps this terminal; Ctrl-C stops it):\n", base)
	fmt.Fprintf(c.stdout, "  %s/  the landing page\n  %s/docs  the API documentation\n", base, base)
	fmt.Fprintf(c.stdout, "  %s/console/  the staff console (sign in with a customer's API key)\n", base)
	profiles, err := st.Profiles(c.ctx, "")
	if err != nil {
		return // the banner is a courtesy; the store's trouble shows elsewhere
	}
	for i, p := range profiles {
		if i == bannerProfiles {
			fmt.Fprintf(c.stdout, "  … and %d more A–Z pages, listed on the landing page\n", len(profiles)-bannerProfiles)
			break
		}
		access := "password"
		if p.Guest {
			access = "guest access"
		}
		fmt.Fprintf(c.stdout, "  %s%s  the A–Z page of profile %s (%s)\n", base, pages.AZPath(p.ID), p.ID, access)
	}
}

// printDemo prints the demo API key and a curl command that uses it.
func printDemo(c *cli, key, scheme, addr string, env kb.Environment) {
	base := baseURL(scheme, addr)
	fmt.Fprintf(c.stdout, `Demo customer %q (%s) is ready.
API key for the %s environment (shown only now: only its hash is stored; each start creates a new one):
  %s
Try:
  curl -H 'x-api-key: %s' '%s/rm/rmaccounts/%s/vendors?count=10&offset=1'
  curl '%s/pf/pfaccount/%s/publications?search=journal&includefacets=true&count=5'
`, demoCustomer, demoCustomerName, env, key, key, base, demoCustomer, base, demoProfile())
}

// maxKeptTitles bounds --kept-titles: about 2.2 KB a title, 2.3 GB.
const maxKeptTitles = 1 << 20

// answerCacheBytes is the answer cache's budget of --answer-cache-mb: the
// server's Deps take less than 0, not 0, for no cache.
func answerCacheBytes(mb int) int64 {
	if mb == 0 {
		return -1
	}
	return int64(mb) << 20
}
