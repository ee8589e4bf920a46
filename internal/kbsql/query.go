package kbsql

import (
	"context"
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
)

// Helpers of the shared store's queries.

// Args collects the arguments of a statement built piece by piece.
type Args []any

// Add appends v and returns its placeholder, $n.
func (a *Args) Add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// QueryAll runs a query and returns every row, read by scan.
func QueryAll[T any](ctx context.Context, q Querier, query string, args []any, scan func(Rows) (T, error)) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// EachRow runs a query and calls fn with each row.
func EachRow(ctx context.Context, q Querier, query string, args []any, fn func(Rows) error) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ExecAll runs statements that return no rows as one batch (one round trip
// on PostgreSQL).
func ExecAll(ctx context.Context, q Querier, stmts ...Stmt) error {
	if len(stmts) == 0 {
		return nil
	}
	res := q.Batch(ctx, stmts...)
	for range stmts {
		if _, err := res.Exec(); err != nil {
			res.Close()
			return err
		}
	}
	return res.Close()
}

// exists reports whether the query returns a row.
func exists(ctx context.Context, q Querier, query string, args ...any) (bool, error) {
	var one int
	err := q.QueryRow(ctx, query, args...).Scan(&one)
	if NoRows(err) {
		return false, nil
	}
	return err == nil, err
}

// ScanInt64 reads a row of one integer.
func ScanInt64(r Rows) (int64, error) {
	var v int64
	err := r.Scan(&v)
	return v, err
}

// str is the string a nullable column holds, "" for NULL.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ListPage returns the number of rows FROM from WHERE where and the page
// of them in order, read by scan: a count and a page, in one round trip
// on PostgreSQL.
func ListPage[T any](ctx context.Context, q Querier, columns, from, where, order string, args Args, page kb.Page,
	scan func(Rows) (T, error)) (int, []T, error) {
	return countedPage(ctx, q, columns, from, from, where, order, args, page, scan)
}

// countedPage is ListPage counting FROM countFrom: from without the joins
// that neither where nor the count needs (joins that match each row at
// most once, and always once for an inner join), which a count of
// thousands of rows would otherwise pay for each row.
func countedPage[T any](ctx context.Context, q Querier, columns, from, countFrom, where, order string, args Args, page kb.Page,
	scan func(Rows) (T, error)) (int, []T, error) {
	items := []T{}
	pageArgs := append(Args(nil), args...)
	limit, offset := pageArgs.Add(page.Count), pageArgs.Add(page.Offset())
	res := q.Batch(ctx,
		Stmt{`SELECT count(*) FROM ` + countFrom + ` WHERE ` + where, args},
		Stmt{`SELECT ` + columns + ` FROM ` + from + ` WHERE ` + where + ` ORDER BY ` + order + ` LIMIT ` + limit + ` OFFSET ` + offset, pageArgs})
	defer res.Close()
	var total int
	rows, err := res.Query()
	if err != nil {
		return 0, items, err
	}
	if rows.Next() {
		err = rows.Scan(&total)
	}
	if rows.Close(); err == nil {
		err = rows.Err()
	}
	if err != nil || total <= page.Offset() {
		return total, items, err
	}
	if rows, err = res.Query(); err != nil {
		return total, items, err
	}
	defer rows.Close()
	for rows.Next() {
		item, err := scan(rows)
		if err != nil {
			return total, items, err
		}
		items = append(items, item)
	}
	return total, items, rows.Err()
}
