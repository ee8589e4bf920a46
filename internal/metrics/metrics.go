// Package metrics collects kbserver's Prometheus metrics: the HTTP
// requests served (by service, route pattern and status, with latency
// histograms), the store's connection pool, holdings snapshot builds and
// imports (from kb.OpsStore), and the Go runtime and process. Each
// Metrics has its own registry: nothing is global.
package metrics

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kbserver/kbserver/internal/kb"
)

// Metrics is a registry with kbserver's metrics.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight prometheus.Gauge
	feedRuns *prometheus.CounterVec
}

// latencyBuckets are the request duration histogram's buckets, in
// seconds: from a cached read (about a millisecond) to a large holdings
// download.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120}

// New returns the metrics of a server over store (nil for none: no store
// metrics). Store statistics are read at every scrape, within
// scrapeTimeout; failures are logged to logger and leave the store's
// metrics out of that scrape.
func New(store kb.OpsStore, logger *slog.Logger) *Metrics {
	if logger == nil {
		logger = slog.Default()
	}
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kbserver_http_requests_total",
			Help: "HTTP requests served, by service, route pattern and status code.",
		}, []string{"service", "route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kbserver_http_request_duration_seconds",
			Help:    "Time from receiving a request to finishing its answer, by service and route pattern.",
			Buckets: latencyBuckets,
		}, []string{"service", "route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "kbserver_http_requests_in_flight",
			Help: "HTTP requests being served now.",
		}),
		feedRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kbserver_feed_runs_total",
			Help: "Runs of package and holdings feeds this process recorded, by outcome (applied, unchanged, held, failed).",
		}, []string{"outcome"}),
	}
	for _, o := range []kb.FeedOutcome{kb.FeedApplied, kb.FeedUnchanged, kb.FeedHeld, kb.FeedFailed} {
		m.feedRuns.WithLabelValues(string(o)) // shown at 0 before the first run
	}
	m.registry.MustRegister(m.requests, m.latency, m.inFlight, m.feedRuns,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector())
	if store != nil {
		m.registry.MustRegister(&storeCollector{store: store, logger: logger})
	}
	return m
}

// Started counts a request in flight; web.Serve calls it as a request
// arrives.
func (m *Metrics) Started() { m.inFlight.Inc() }

// Finished records a request served: its service and route pattern (""
// when no route matched), the status code sent and how long it took. It
// ends the request counted by Started.
func (m *Metrics) Finished(service, route string, code int, d time.Duration) {
	m.inFlight.Dec()
	if service == "" {
		service = "none"
	}
	if route == "" {
		route = "unmatched" // a bounded label whatever paths clients try
	}
	m.requests.WithLabelValues(service, route, strconv.Itoa(code)).Inc()
	m.latency.WithLabelValues(service, route).Observe(d.Seconds())
}

// FeedRun counts a feed's run recorded with its outcome.
func (m *Metrics) FeedRun(o kb.FeedOutcome) { m.feedRuns.WithLabelValues(string(o)).Inc() }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// scrapeTimeout bounds the store's statistics at a scrape.
const scrapeTimeout = 5 * time.Second

// storeCollector reports kb.OpsStore's statistics at each scrape.
type storeCollector struct {
	store  kb.OpsStore
	logger *slog.Logger
}

var (
	descReady        = prometheus.NewDesc("kbserver_store_ready", "1 when the store answers and its schema is current (as /readyz), else 0.", nil, nil)
	descPoolMax      = prometheus.NewDesc("kbserver_store_pool_max_connections", "The most connections the store's pool opens.", nil, nil)
	descPoolOpen     = prometheus.NewDesc("kbserver_store_pool_open_connections", "Connections of the store's pool open now.", nil, nil)
	descPoolInUse    = prometheus.NewDesc("kbserver_store_pool_in_use_connections", "Connections of the store's pool in use now.", nil, nil)
	descPoolIdle     = prometheus.NewDesc("kbserver_store_pool_idle_connections", "Connections of the store's pool idle now.", nil, nil)
	descPoolWaits    = prometheus.NewDesc("kbserver_store_pool_waits_total", "Connection acquisitions that had to wait for a free connection.", nil, nil)
	descPoolWaitSecs = prometheus.NewDesc("kbserver_store_pool_wait_seconds_total", "Time spent waiting for a free connection.", nil, nil)
	descBuilds       = prometheus.NewDesc("kbserver_snapshot_builds_total", "Holdings snapshot builds this process finished, by result.", []string{"result"}, nil)
	descBuildSecs    = prometheus.NewDesc("kbserver_snapshot_build_seconds_total", "Time this process spent on finished holdings snapshot builds.", nil, nil)
	descImports      = prometheus.NewDesc("kbserver_imports_total", "Package imports recorded in the store, by every process.", nil, nil)
	descImportRows   = prometheus.NewDesc("kbserver_import_rows_total", "KBART rows received by the package imports recorded in the store.", nil, nil)
	descLastImport   = prometheus.NewDesc("kbserver_last_import_timestamp_seconds", "When the newest recorded import finished, in Unix seconds (0 when none has).", nil, nil)
)

// Describe implements prometheus.Collector.
func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descReady, descPoolMax, descPoolOpen, descPoolInUse, descPoolIdle,
		descPoolWaits, descPoolWaitSecs, descBuilds, descBuildSecs, descImports, descImportRows, descLastImport} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	ready := 1.0
	if err := c.store.Ready(ctx); err != nil {
		ready = 0
	}
	ch <- prometheus.MustNewConstMetric(descReady, prometheus.GaugeValue, ready)
	s, err := c.store.Stats(ctx)
	if err != nil {
		c.logger.LogAttrs(ctx, slog.LevelWarn, "store statistics for /metrics failed", slog.String("error", err.Error()))
		return
	}
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge(descPoolMax, float64(s.Pool.MaxOpen))
	gauge(descPoolOpen, float64(s.Pool.Open))
	gauge(descPoolInUse, float64(s.Pool.InUse))
	gauge(descPoolIdle, float64(s.Pool.Idle))
	counter(descPoolWaits, float64(s.Pool.WaitCount))
	counter(descPoolWaitSecs, s.Pool.WaitDuration.Seconds())
	counter(descBuilds, float64(s.SnapshotBuildsCompleted), "completed")
	counter(descBuilds, float64(s.SnapshotBuildsFailed), "failed")
	counter(descBuildSecs, s.SnapshotBuildSeconds)
	counter(descImports, float64(s.Imports))
	counter(descImportRows, float64(s.ImportRows))
	last := 0.0
	if !s.LastImport.IsZero() {
		last = float64(s.LastImport.UnixNano()) / 1e9
	}
	gauge(descLastImport, last)
}
