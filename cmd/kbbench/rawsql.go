package main

import (
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
)

// rawQuery is the bare index query of a title search, the floor of what
// the store can do for it: the matching title ids straight from the index
// a search type and field use (FTS5 title_fts, trigram title_tri, the
// title_identifiers norm index, the titles sort_name and sort_publisher
// ranges), with no join to titles, no customer state and no resources.
// The store builds it (sqlite.TitleSearchSQL), so both search alike.
type rawQuery struct {
	ids   string // SELECT … AS id, … AS rank FROM … WHERE …: the matches
	order string // ORDER BY of the first page (the index's order: bm25, or the name)
	args  []any
	none  bool // the search can match nothing (no words in it)
}

// countSQL counts the matches.
func (r rawQuery) countSQL() string { return `SELECT count(*) FROM (` + r.ids + `)` }

// pageSQL reads the first page of ids (:limit) in the index's order.
func (r rawQuery) pageSQL() string {
	return `SELECT id FROM (` + r.ids + ` ORDER BY ` + r.order + ` LIMIT :limit)`
}

// exactSQL counts the matches the customer (:cust) sees: what the API's
// totalResults must be (a customer's custom titles are invisible to the
// others).
func (r rawQuery) exactSQL() string {
	return `SELECT count(*) FROM (` + r.ids + `) m JOIN titles t ON t.id = m.id WHERE t.customer_id IS NULL OR t.customer_id = :cust`
}

// buildRawQuery returns the bare index query of a title search in
// relevance order (kbbench never sets OrderBy).
func buildRawQuery(q kb.TitleQuery) (rawQuery, error) {
	ids, order, args, none, err := sqlite.TitleSearchSQL(q)
	return rawQuery{ids: ids, order: order, args: args, none: none}, err
}

// openReadOnly opens the SQLite file path read only (mode=ro and
// query_only), with the page cache and settings of the store's readers.
func openReadOnly(path string, conns int) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	for _, p := range []string{"busy_timeout(10000)", "query_only(1)", "temp_store(MEMORY)", "cache_size(-16384)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}
