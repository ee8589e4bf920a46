package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlReport is the result of the --sql-db run: the bare index queries of
// the title searches, and their comparison with HTTP and the store.
type sqlReport struct {
	Operations []opStats     `json:"operations"`
	Totals     opStats       `json:"totals"`
	Floor      []floorRatio  `json:"floor"`
	Verify     *verifyReport `json:"verify_totals,omitempty"`
}

// floorRatio compares one title search over HTTP, on the store and as its
// bare index query (0 where a level was not run).
type floorRatio struct {
	Name            string  `json:"name"`
	HTTPP50         float64 `json:"http_p50_ms"`
	StoreP50        float64 `json:"store_p50_ms"`
	SQLP50          float64 `json:"sql_p50_ms"`
	HTTPP99         float64 `json:"http_p99_ms"`
	StoreP99        float64 `json:"store_p99_ms"`
	SQLP99          float64 `json:"sql_p99_ms"`
	HTTPToSQL       float64 `json:"http_to_sql_p50"`
	StoreToSQL      float64 `json:"store_to_sql_p50"`
	HTTPThroughput  float64 `json:"http_throughput_rps"`
	StoreThroughput float64 `json:"store_throughput_rps"`
	SQLThroughput   float64 `json:"sql_throughput_rps"`
}

// verifyReport is the check that the API's totalResults are exact: for
// sampled title searches, totalResults against the count of the bare
// index query's matches the customer sees.
type verifyReport struct {
	Checked    int      `json:"checked"`
	Mismatches int      `json:"mismatches"`
	MaxTotal   int      `json:"max_total"` // the largest total checked
	Examples   []string `json:"examples,omitempty"`
}

// runSQL runs the bare index query (rawQuery) of every title search of
// ops straight on o.sqlDB, read only, with the same clients, warm-up and
// duration as the HTTP run: a count of the matches, then the first page of
// their ids when there are any (as the store counts, then reads a page).
func runSQL(ctx context.Context, o options, ops []operation, stderr io.Writer) ([]opStats, opStats, error) {
	searches := searchOperations(ops)
	if len(searches) == 0 {
		fmt.Fprintln(stderr, "kbbench: --sql-db: the mix has no title search to run as SQL")
		return nil, opStats{}, nil
	}
	db, err := openReadOnly(o.sqlDB, o.clients)
	if err != nil {
		return nil, opStats{}, fmt.Errorf("--sql-db: %w", err)
	}
	defer db.Close()
	names := make([]string, len(searches))
	for i, op := range searches {
		names[i] = op.name
	}
	fmt.Fprintf(stderr, "kbbench: the bare index queries of the same %d title searches on %s\n", len(searches), o.sqlDB)
	exec := func(ctx context.Context, i int, rng *rand.Rand) string {
		q := searches[i].search(rng)
		if _, err := rawCount(ctx, db, q, ""); err != nil {
			return "sql"
		}
		return ""
	}
	res, measured := runLoad(ctx, o, names, func(int) executor { return exec })
	stats, tot := summarize(names, res, measured)
	return stats, tot, nil
}

// rawCount runs the bare index query of q on db: the count of the matches
// and, when there are any, the first page of ids. With custID it counts
// the matches that customer sees (the exact total) and reads no page.
func rawCount(ctx context.Context, db *sql.DB, q kb.TitleQuery, custID string) (int, error) {
	r, err := buildRawQuery(q)
	if err != nil {
		return 0, err
	}
	if r.none {
		return 0, nil
	}
	var n int
	if custID != "" {
		err := db.QueryRowContext(ctx, r.exactSQL(), append(slices.Clone(r.args), sql.Named("cust", custID))...).Scan(&n)
		return n, err
	}
	if err := db.QueryRowContext(ctx, r.countSQL(), r.args...).Scan(&n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	rows, err := db.QueryContext(ctx, r.pageSQL(), append(slices.Clone(r.args), sql.Named("limit", q.Page.Count))...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return 0, err
		}
	}
	return n, rows.Err()
}

// verifyTotals checks, for perOp searches of each title-search operation
// (other terms than the load's), that the API's totalResults equals the
// exact count of the matches the customer sees.
func verifyTotals(ctx context.Context, a *apiClient, o options, ops []operation, perOp int) (*verifyReport, error) {
	db, err := openReadOnly(o.sqlDB, 1)
	if err != nil {
		return nil, fmt.Errorf("--sql-db: %w", err)
	}
	defer db.Close()
	v := &verifyReport{}
	for _, op := range searchOperations(ops) {
		rng := rngFor(o.seed+1, 1<<20, op.name)
		for range perOp {
			q := op.search(rng)
			q.Page.Count = 1
			var got struct {
				TotalResults *int `json:"totalResults"`
			}
			herr := a.do(ctx, http.MethodGet, titleSearchPath(q), nil, &got)
			want, serr := rawCount(ctx, db, q, o.custID)
			v.Checked++
			var problem string
			switch {
			case herr != nil && serr != nil:
				v.Checked-- // an invalid search for both: nothing to compare
				continue
			case herr != nil:
				problem = "HTTP: " + herr.Error()
			case serr != nil:
				problem = "SQL: " + serr.Error()
			case got.TotalResults == nil:
				problem = "no totalResults in the answer"
			case *got.TotalResults != want:
				problem = fmt.Sprintf("totalResults %d, exact count %d", *got.TotalResults, want)
			}
			if got.TotalResults != nil {
				v.MaxTotal = max(v.MaxTotal, *got.TotalResults)
			}
			if problem != "" {
				v.Mismatches++
				if len(v.Examples) < 10 {
					v.Examples = append(v.Examples, fmt.Sprintf("%s %q: %s", op.name, q.Search, problem))
				}
			}
			if ctx.Err() != nil {
				return v, ctx.Err()
			}
		}
	}
	return v, nil
}

// floorRatios lines up the title searches' results at the three levels;
// store may be nil.
func floorRatios(httpStats, store, raw []opStats) []floorRatio {
	find := func(list []opStats, name string) opStats {
		if i := slices.IndexFunc(list, func(s opStats) bool { return s.Name == name }); i >= 0 {
			return list[i]
		}
		return opStats{}
	}
	var out []floorRatio
	for _, r := range raw {
		h, s := find(httpStats, r.Name), find(store, r.Name)
		out = append(out, floorRatio{Name: r.Name,
			HTTPP50: h.P50, StoreP50: s.P50, SQLP50: r.P50,
			HTTPP99: h.P99, StoreP99: s.P99, SQLP99: r.P99,
			HTTPToSQL: div(h.P50, r.P50), StoreToSQL: div(s.P50, r.P50),
			HTTPThroughput: h.Throughput, StoreThroughput: s.Throughput, SQLThroughput: r.Throughput})
	}
	return out
}
