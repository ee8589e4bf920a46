package metrics

import "github.com/prometheus/client_golang/prometheus"

// WatchKeptTitles reports, at each scrape, how many titles of search
// pages the store found kept (hits) and read from the database (misses).
func (m *Metrics) WatchKeptTitles(stats func() (hits, misses int64)) {
	for _, result := range []string{"hit", "miss"} {
		m.registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "kbserver_kept_titles_total",
			Help:        "Titles of the pages of title and publication searches, by result: hit (a finished title kept at the current versions) or miss (read from the database).",
			ConstLabels: prometheus.Labels{"result": result},
		}, func() float64 {
			h, m := stats()
			if result == "hit" {
				return float64(h)
			}
			return float64(m)
		}))
	}
}
