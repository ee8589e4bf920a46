package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// typeSummary is one search type's result against the p99 target: its
// worst field, by the median over the runs of each field's p99.
type typeSummary struct {
	Type       string             `json:"type"`
	FieldP99   map[string]float64 `json:"field_p99_ms"`
	WorstField string             `json:"worst_field"`
	P99        float64            `json:"p99_ms"`
	Errors     int                `json:"errors"`
	Met        bool               `json:"met"`
}

// runsSummary is what kbbench summary --json writes.
type runsSummary struct {
	Runs       int           `json:"runs"`
	TargetMS   float64       `json:"target_p99_ms"`
	Types      []typeSummary `json:"types"`
	MetTypes   int           `json:"met_types"`
	AllMet     bool          `json:"all_met"`
	WorstType  string        `json:"worst_type"`
	WorstField string        `json:"worst_field"`
	WorstP99   float64       `json:"worst_p99_ms"`
	Errors     int           `json:"errors"`
	// Medians of the runs' totals over the title searches.
	HTTPP50  float64 `json:"http_p50_ms"`
	StoreP50 float64 `json:"store_p50_ms"`
	HTTPRPS  float64 `json:"http_rps"`
	StoreRPS float64 `json:"store_rps"`
}

func runSummary(args []string, stdout, stderr io.Writer) error {
	fs := toolFlags("summary", stderr)
	target := fs.Duration("p99-target", 15*time.Millisecond, "p99 `target` of every search type")
	jsonFile := fs.String("json", "", "also write the summary as JSON to `file`")
	if help, err := parseTool(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("summary: give the JSON results of one or more runs")
	}
	var runs []report
	for _, f := range fs.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var r report
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		runs = append(runs, r)
	}
	s := summarizeRuns(runs, float64(*target)/float64(time.Millisecond))
	writeSummary(stdout, runs, s)
	if *jsonFile != "" {
		b, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(*jsonFile, append(b, '\n'), 0o644)
	}
	return nil
}

// median returns the median of vs (the mean of the middle two for an even
// number), 0 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// opRuns gathers one operation's statistics over the runs, by name.
type opRuns struct {
	name   string
	stats  []opStats // one per run that has the operation
	errors int
}

func (o *opRuns) med(f func(opStats) float64) float64 {
	vs := make([]float64, len(o.stats))
	for i, s := range o.stats {
		vs[i] = f(s)
	}
	return median(vs)
}

// gather returns, in order of first appearance, each operation of the
// lists (one list per run) with its statistics over the runs; the totals
// come last.
func gather(lists [][]opStats, totals []opStats) []*opRuns {
	var out []*opRuns
	by := map[string]*opRuns{}
	for _, list := range lists {
		for _, s := range list {
			o := by[s.Name]
			if o == nil {
				o = &opRuns{name: s.Name}
				by[s.Name] = o
				out = append(out, o)
			}
			o.stats = append(o.stats, s)
			o.errors += s.Errors
		}
	}
	if len(totals) > 0 {
		t := &opRuns{name: "total", stats: totals}
		for _, s := range totals {
			t.errors += s.Errors
		}
		out = append(out, t)
	}
	return out
}

func p50(s opStats) float64 { return s.P50 }
func p95(s opStats) float64 { return s.P95 }
func p99(s opStats) float64 { return s.P99 }
func rps(s opStats) float64 { return s.Throughput }

// summarizeRuns computes the per-type results against the target (ms).
func summarizeRuns(runs []report, target float64) runsSummary {
	s := runsSummary{Runs: len(runs), TargetMS: target, AllMet: true}
	var lists [][]opStats
	var totals, storeTot []opStats
	for _, r := range runs {
		lists = append(lists, r.Operations)
		totals = append(totals, r.Totals)
		if r.Store != nil {
			storeTot = append(storeTot, r.Store.Totals)
		}
	}
	ops := gather(lists, nil)
	for _, t := range searchTypes {
		ts := typeSummary{Type: t.String(), FieldP99: map[string]float64{}, Met: true}
		found := false
		for _, f := range searchFields {
			i := slices.IndexFunc(ops, func(o *opRuns) bool { return o.name == searchName(t, f) })
			if i < 0 {
				continue
			}
			found = true
			v := ops[i].med(p99)
			ts.FieldP99[f.String()] = v
			ts.Errors += ops[i].errors
			if ts.WorstField == "" || v > ts.P99 {
				ts.WorstField, ts.P99 = f.String(), v
			}
		}
		if !found {
			continue
		}
		ts.Met = ts.P99 <= target && ts.Errors == 0
		if ts.Met {
			s.MetTypes++
		} else {
			s.AllMet = false
		}
		s.Errors += ts.Errors
		if s.WorstType == "" || ts.P99 > s.WorstP99 {
			s.WorstType, s.WorstField, s.WorstP99 = ts.Type, ts.WorstField, ts.P99
		}
		s.Types = append(s.Types, ts)
	}
	if len(s.Types) == 0 {
		s.AllMet = false
	}
	s.HTTPP50, s.HTTPRPS = median(values(totals, p50)), median(values(totals, rps))
	s.StoreP50, s.StoreRPS = median(values(storeTot, p50)), median(values(storeTot, rps))
	return s
}

func values(list []opStats, f func(opStats) float64) []float64 {
	vs := make([]float64, len(list))
	for i, s := range list {
		vs[i] = f(s)
	}
	return vs
}

// ms formats a latency for the tables.
func ms(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// ratioText formats a/b, "–" when either is missing.
func ratioText(a, b float64) string {
	if a == 0 || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f×", a/b)
}

// writeSummary prints the Markdown tables of the runs and their summary.
func writeSummary(w io.Writer, runs []report, s runsSummary) {
	first := report{}
	if len(runs) > 0 {
		first = runs[0]
	}
	fmt.Fprintf(w, "Title search over HTTP: %s clients, %s measured per run after a %s warm-up, %d run(s); each value is the median of the runs, the p99 of each run in the next column.\n\n",
		first.Flags["clients"], first.Flags["duration"], first.Flags["warmup"], len(runs))
	var lists [][]opStats
	var totals []opStats
	for _, r := range runs {
		lists = append(lists, r.Operations)
		totals = append(totals, r.Totals)
	}
	fmt.Fprintln(w, "| operation | req/s | p50 ms | p95 ms | p99 ms | p99 of each run | errors |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---|---:|")
	for _, o := range gather(lists, totals) {
		each := make([]string, len(o.stats))
		for i, st := range o.stats {
			each[i] = ms(st.P99)
		}
		fmt.Fprintf(w, "| %s | %.1f | %s | %s | %s | %s | %d |\n", o.name, o.med(rps), ms(o.med(p50)), ms(o.med(p95)), ms(o.med(p99)),
			strings.Join(each, ", "), o.errors)
	}

	fmt.Fprintf(w, "\nPer search type: p99 ms of each field (median of the runs); the worst field against the target p99 ≤ %s ms.\n\n", ms(s.TargetMS))
	fmt.Fprint(w, "| search type |")
	for _, f := range searchFields {
		fmt.Fprintf(w, " %s |", f)
	}
	fmt.Fprintln(w, " worst | met? |")
	fmt.Fprintln(w, "|---|"+strings.Repeat("---:|", len(searchFields))+"---|---|")
	for _, t := range s.Types {
		fmt.Fprintf(w, "| %s |", t.Type)
		for _, f := range searchFields {
			if v, ok := t.FieldP99[f.String()]; ok {
				fmt.Fprintf(w, " %s |", ms(v))
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		verdict := "met"
		if !t.Met {
			verdict = "**not met**"
		}
		if t.Errors > 0 {
			verdict += fmt.Sprintf(" (%d errors)", t.Errors)
		}
		fmt.Fprintf(w, " %s %s | %s |\n", ms(t.P99), t.WorstField, verdict)
	}

	// HTTP / store.
	var store [][]opStats
	var storeTot []opStats
	for _, r := range runs {
		if r.Store != nil {
			store = append(store, r.Store.Operations)
			storeTot = append(storeTot, r.Store.Totals)
		}
	}
	if len(store) == 0 {
		return
	}
	storeOps := gather(store, storeTot)
	fmt.Fprintln(w, "\nThe same title searches over HTTP and on the store (no HTTP), same clients and duration; ms, medians of the runs.")
	fmt.Fprintln(w, "\n| operation | HTTP p50 | store p50 | HTTP p99 | store p99 | HTTP/store p50 |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, h := range gather(lists, totals) {
		if _, _, ok := parseSearchName(h.name); !ok && h.name != "total" {
			continue
		}
		st := &opRuns{name: h.name}
		if i := slices.IndexFunc(storeOps, func(o *opRuns) bool { return o.name == h.name }); i >= 0 {
			st = storeOps[i]
		}
		val := func(o *opRuns, f func(opStats) float64) float64 {
			if len(o.stats) == 0 {
				return 0
			}
			return o.med(f)
		}
		cell := func(v float64) string {
			if v == 0 {
				return "–"
			}
			return ms(v)
		}
		hp50, sp50 := val(h, p50), val(st, p50)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", h.name, cell(hp50), cell(sp50),
			cell(val(h, p99)), cell(val(st, p99)), ratioText(hp50, sp50))
	}
	// The operations take turns in each client, so each gets the same
	// share of the requests: only the totals' throughputs compare.
	fmt.Fprintf(w, "\nThroughput of the whole title-search mix (the operations take turns, so per-operation rates only repeat it): HTTP %.1f req/s, store %.1f req/s (medians of the runs).\n",
		s.HTTPRPS, s.StoreRPS)
}
