package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kbserver/kbserver/internal/answercache"
)

var (
	descAnswerRequests = prometheus.NewDesc("kbserver_answer_cache_requests_total",
		"Requests for a kept answer of the holdings service, by result: hit, miss (none kept) or stale (the kept one was of an older version).",
		[]string{"result"}, nil)
	descAnswerEvictions = prometheus.NewDesc("kbserver_answer_cache_evictions_total",
		"Kept answers dropped to stay within the cache's byte budget.", nil, nil)
	descAnswerEntries = prometheus.NewDesc("kbserver_answer_cache_entries", "Answers kept now.", nil, nil)
	descAnswerBytes   = prometheus.NewDesc("kbserver_answer_cache_bytes", "Bytes the kept answers are counted for now.", nil, nil)
	descAnswerBudget  = prometheus.NewDesc("kbserver_answer_cache_budget_bytes", "The most bytes the kept answers may take.", nil, nil)
)

// WatchAnswerCache reports the statistics of the holdings service's cache
// of answers at each scrape, from stats.
func (m *Metrics) WatchAnswerCache(stats func() answercache.Stats) {
	m.registry.MustRegister(answerCacheCollector(stats))
}

// answerCacheCollector reports an answer cache's statistics.
type answerCacheCollector func() answercache.Stats

// Describe implements prometheus.Collector.
func (c answerCacheCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAnswerRequests, descAnswerEvictions, descAnswerEntries, descAnswerBytes, descAnswerBudget} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c answerCacheCollector) Collect(ch chan<- prometheus.Metric) {
	s := c()
	for result, n := range map[string]int64{"hit": s.Hits, "miss": s.Misses, "stale": s.Stale} {
		ch <- prometheus.MustNewConstMetric(descAnswerRequests, prometheus.CounterValue, float64(n), result)
	}
	ch <- prometheus.MustNewConstMetric(descAnswerEvictions, prometheus.CounterValue, float64(s.Evictions))
	ch <- prometheus.MustNewConstMetric(descAnswerEntries, prometheus.GaugeValue, float64(s.Entries))
	ch <- prometheus.MustNewConstMetric(descAnswerBytes, prometheus.GaugeValue, float64(s.Bytes))
	ch <- prometheus.MustNewConstMetric(descAnswerBudget, prometheus.GaugeValue, float64(s.Budget))
}
