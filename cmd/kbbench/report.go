package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// opStats are the results of one operation, or the totals.
type opStats struct {
	Name          string         `json:"name"`
	Requests      int            `json:"requests"`
	Errors        int            `json:"errors"`
	ErrorStatuses map[string]int `json:"error_statuses,omitempty"`
	Throughput    float64        `json:"throughput_rps"`
	P50           float64        `json:"p50_ms"`
	P95           float64        `json:"p95_ms"`
	P99           float64        `json:"p99_ms"`
	samples       int            // successful requests: the percentiles' base
}

// ratio compares an operation's HTTP and store results.
type ratio struct {
	Name            string  `json:"name"`
	HTTPP50         float64 `json:"http_p50_ms"`
	StoreP50        float64 `json:"store_p50_ms"`
	P50Ratio        float64 `json:"p50_ratio"`
	HTTPThroughput  float64 `json:"http_throughput_rps"`
	StoreThroughput float64 `json:"store_throughput_rps"`
	ThroughputRatio float64 `json:"throughput_ratio"`
}

// report is everything kbbench prints, and its JSON form.
type report struct {
	Start      string            `json:"start"`
	GoVersion  string            `json:"go_version"`
	Flags      map[string]string `json:"flags"`
	Measured   float64           `json:"measured_seconds"`
	Notes      []string          `json:"notes,omitempty"`
	Operations []opStats         `json:"operations"`
	Totals     opStats           `json:"totals"`
	Store      *storeReport      `json:"store,omitempty"`
}

// storeReport is the result of the --store-db run.
type storeReport struct {
	Operations []opStats `json:"operations"`
	Totals     opStats   `json:"totals"`
	Ratios     []ratio   `json:"ratios"`
}

// percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the smallest sample with at least p% of the samples
// at or below it. It returns 0 for no samples.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	return sorted[min(max(rank, 1), n)-1]
}

// summarize computes each operation's statistics and the totals over all
// of them, for the measured time.
func summarize(names []string, res []opResult, measured time.Duration) ([]opStats, opStats) {
	secs := measured.Seconds()
	stats := func(name string, requests int, errs map[string]int, samples []float64) opStats {
		slices.Sort(samples)
		s := opStats{Name: name, Requests: requests, Throughput: float64(requests) / secs,
			P50: percentile(samples, 50), P95: percentile(samples, 95), P99: percentile(samples, 99), samples: len(samples)}
		for k, v := range errs {
			if s.ErrorStatuses == nil {
				s.ErrorStatuses = map[string]int{}
			}
			s.ErrorStatuses[k] += v
			s.Errors += v
		}
		return s
	}
	var out []opStats
	var all []float64
	allErrs := map[string]int{}
	requests := 0
	for i, r := range res {
		out = append(out, stats(names[i], r.requests, r.errors, r.samples))
		all = append(all, r.samples...)
		requests += r.requests
		for k, v := range r.errors {
			allErrs[k] += v
		}
	}
	return out, stats("total", requests, allErrs, all)
}

// ratios compares the HTTP and store results of the operations in both
// (and of the totals, when both lists end with them).
func ratios(httpStats, storeStats []opStats) []ratio {
	var out []ratio
	for _, s := range storeStats {
		i := slices.IndexFunc(httpStats, func(h opStats) bool { return h.Name == s.Name })
		if i < 0 {
			continue
		}
		h := httpStats[i]
		out = append(out, ratio{Name: s.Name, HTTPP50: h.P50, StoreP50: s.P50, P50Ratio: div(h.P50, s.P50),
			HTTPThroughput: h.Throughput, StoreThroughput: s.Throughput, ThroughputRatio: div(h.Throughput, s.Throughput)})
	}
	return out
}

func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// writeTables prints the report as aligned tables.
func writeTables(w io.Writer, r report) {
	fmt.Fprintf(w, "kbbench %s, %s clients, %s measured (after %s warm-up), mix %s, %s\n\n",
		r.Flags["url"], r.Flags["clients"], r.Flags["duration"], r.Flags["warmup"], r.Flags["mix"], r.GoVersion)
	fmt.Fprintln(w, "HTTP")
	writeStats(w, r.Operations, r.Totals)
	if r.Store != nil {
		writeStoreTables(w, r.Store)
	}
}

// writeStoreTables prints the store run and its ratios to HTTP.
func writeStoreTables(w io.Writer, st *storeReport) {
	fmt.Fprintln(w, "\nStore (the same title searches, no HTTP)")
	writeStats(w, st.Operations, st.Totals)
	fmt.Fprintln(w, "\nHTTP / store")
	width := len("operation")
	for _, x := range st.Ratios {
		width = max(width, len(x.Name))
	}
	fmt.Fprintf(w, "%-*s %10s %10s %9s %10s %10s %9s\n", width, "operation", "http p50", "store p50", "p50 ×", "http r/s", "store r/s", "r/s ×")
	for _, x := range st.Ratios {
		fmt.Fprintf(w, "%-*s %10.2f %10.2f %9.2f %10.1f %10.1f %9.2f\n", width, x.Name, x.HTTPP50, x.StoreP50, x.P50Ratio,
			x.HTTPThroughput, x.StoreThroughput, x.ThroughputRatio)
	}
}

// writeStats prints one table: a row per operation, then the totals.
func writeStats(w io.Writer, ops []opStats, tot opStats) {
	width := len("operation")
	for _, s := range ops {
		width = max(width, len(s.Name))
	}
	fmt.Fprintf(w, "%-*s %9s %7s %9s %9s %9s %9s  %s\n", width, "operation", "requests", "errors", "req/s", "p50 ms", "p95 ms", "p99 ms", "error statuses")
	row := func(s opStats) {
		ms := func(v float64) string {
			if s.samples == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(w, "%-*s %9d %7d %9.1f %9s %9s %9s  %s\n", width, s.Name, s.Requests, s.Errors, s.Throughput,
			ms(s.P50), ms(s.P95), ms(s.P99), statuses(s.ErrorStatuses))
	}
	for _, s := range ops {
		row(s)
	}
	row(tot)
}

// statuses formats error counts as "404:3 transport:1".
func statuses(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// marshalReport encodes r as indented JSON.
func marshalReport(r report) ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
