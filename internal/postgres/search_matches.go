package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// TitleMatches calls fn with every title the search of q matches and its
// rank (lower is better; 0 when q orders by name), through the same
// indexes as the title search of the holdings service; it does not look at
// the customer's collection. The matches stream: a broad search holds no
// list of them.
func (s *Store) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	if strings.TrimSpace(q.Search) == "" {
		return nil
	}
	tq := kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}
	if q.ByName {
		tq.OrderBy = kb.OrderName // no rank needed
	}
	var args params
	m, err := buildTitleMatch(tq, &args)
	if err != nil || m.none {
		return err
	}
	rank := "0"
	if m.rank != "" {
		rank = m.rank
	}
	rows, err := s.pool.Query(ctx, `SELECT t.id, (`+rank+`)::float8 FROM titles t WHERE `+m.cond, args...)
	if err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	defer rows.Close()
	var id int64
	var r float64
	for rows.Next() {
		if err := rows.Scan(&id, &r); err != nil {
			return fmt.Errorf("title matches: %w", err)
		}
		fn(id, r)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	return nil
}
