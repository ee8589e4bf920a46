package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// ermTextColumns are the expressions, in erm_objects o, of the fields
// sorted as text: the status and description columns, and the body's
// members at kbsql.ERMBodyPaths, read from its parsed form (doc; NULL
// when the member is missing, as json_extract is on SQLite). Filters
// match the status and the document URL exactly, the others by
// "contains".
var ermTextColumns = func() map[kb.ERMField]string {
	cols := map[kb.ERMField]string{
		kb.FieldStatus:      `o.status`,
		kb.FieldDescription: `o.description`,
	}
	for f, path := range kbsql.ERMBodyPaths {
		// The keys are constants of kbsql: plain names, safe in a literal.
		cols[f] = `(o.doc #>> '{` + strings.Join(path, ",") + `}')`
	}
	return cols
}()

// ermTimeColumns are the columns of the date fields.
var ermTimeColumns = map[kb.ERMField]string{
	kb.FieldDateCreated: `o.created`,
	kb.FieldDateUpdated: `o.updated`,
}

// ermFold returns expr folded as SQLite's lower() and NOCASE fold: ASCII
// letters only. lower() in the "C" collation folds ASCII only, whatever
// the database's locale, and the result compares byte by byte, as SQLite's
// BINARY and NOCASE do.
func ermFold(expr string) string { return `lower(` + expr + ` COLLATE "C")` }

// asciiLower folds the ASCII letters of s to lower case and leaves every
// other byte alone: ermFold's folding, done before the text is sent.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

// ermArgs collects the arguments of a statement and names their
// placeholders.
type ermArgs []any

// add appends v and returns its placeholder ($n).
func (a *ermArgs) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// ERMObjects lists a page of the customer's objects of q.Kind, with the
// number that match. The filter and the sort keys must be fields of the
// kind (kb.ERMKind.CheckFilter and CheckSort, else CodeInvalid). The
// status and the document URL match exactly; the other text fields match
// by "contains", without regard to ASCII case, and all text fields sort
// without regard to it. An object without the field (a JSON member
// missing) matches no text filter and sorts first in ascending order.
// The default order is newest first; ties always end in id order.
func (s *Store) ERMObjects(ctx context.Context, custID string, q kb.ERMQuery) (kb.ERMList, error) {
	list := kb.ERMList{Objects: []kb.ERMObject{}}
	if _, err := kb.ParseERMKind(string(q.Kind)); err != nil {
		return list, err
	}
	if err := kbsql.CheckERMPage(q.Page); err != nil {
		return list, err
	}
	var args ermArgs
	cust := args.add(custID)
	where := []string{`o.customer_id = ` + cust, `o.kind = ` + args.add(string(q.Kind))}
	if q.Filter != nil {
		conds, err := ermFilter(q.Kind, *q.Filter, cust, &args)
		if err != nil {
			return list, err
		}
		where = append(where, conds...)
	}
	if q.AssignedTo != "" {
		url := args.add(q.AssignedTo)
		// Uncorrelated: run once per list, by the two URL indexes.
		where = append(where, `o.id IN (SELECT a.object_id FROM erm_assignments a
			WHERE a.customer_id = `+cust+` AND (a.relative_url = `+url+` OR a.link_url = `+url+`))`)
	}
	order, err := ermOrder(q.Kind, q.Sort)
	if err != nil {
		return list, err
	}
	list.Total, list.Objects, err = ermPage(ctx, s, kbsql.ERMColumns, `erm_objects o`, strings.Join(where, " AND "), order, args, q.Page,
		func(rows pgx.Rows) (kb.ERMObject, error) { return kbsql.ScanERMObject(rows) })
	if err != nil {
		return list, fmt.Errorf("list %s objects: %w", q.Kind, err)
	}
	return list, nil
}

// ermFilter returns the conditions on erm_objects o of a filter of a list
// of kind, adding their arguments to args (cust is the customer's
// placeholder). User text is only ever an argument.
func ermFilter(kind kb.ERMKind, f kb.ERMFilter, cust string, args *ermArgs) ([]string, error) {
	if err := kind.CheckFilter(f.Field); err != nil {
		return nil, err
	}
	switch f.Field {
	case kb.FieldStatus, kb.FieldDocumentURL:
		return []string{ermTextColumns[f.Field] + ` = ` + args.add(f.Text)}, nil
	case kb.FieldAssignmentID:
		return []string{`o.id IN (SELECT a.object_id FROM erm_assignments a WHERE a.customer_id = ` + cust +
			` AND a.id = ` + args.add(f.Text) + `)`}, nil
	case kb.FieldDateCreated, kb.FieldDateUpdated:
		col := ermTimeColumns[f.Field]
		var conds []string
		if !f.From.IsZero() {
			conds = append(conds, col+` >= `+args.add(kbsql.FormatERMTime(f.From)))
		}
		if !f.To.IsZero() {
			conds = append(conds, col+` < `+args.add(kbsql.FormatERMTime(f.To)))
		}
		return conds, nil
	}
	col, ok := ermTextColumns[f.Field]
	if !ok { // a field CheckFilter allows that this store does not know
		return nil, fmt.Errorf("list %s objects: no column for field %q", kind, f.Field)
	}
	// strpos, not LIKE: % and _ in the text are characters. SQLite's
	// instr(lower(col), lower(text)) > 0.
	return []string{`strpos(` + ermFold(col) + `, ` + args.add(asciiLower(f.Text)) + `) > 0`}, nil
}

// ermOrder returns the ORDER BY of a list of kind sorted by keys: each
// key's column (text without regard to ASCII case), then the id; newest
// first when keys is empty. A missing member (NULL) sorts first
// ascending and last descending, as on SQLite.
func ermOrder(kind kb.ERMKind, keys []kb.ERMSort) (string, error) {
	if len(keys) == 0 {
		keys = []kb.ERMSort{{Field: kb.FieldDateCreated, Desc: true}}
	}
	terms := make([]string, 0, len(keys)+1)
	for _, k := range keys {
		if err := kind.CheckSort(k.Field); err != nil {
			return "", err
		}
		// The times are never NULL: no NULLS clause, so that the default
		// order is erm_objects_kind's (created DESC, id), read in order.
		if col, ok := ermTimeColumns[k.Field]; ok {
			if k.Desc {
				col += ` DESC`
			}
			terms = append(terms, col)
			continue
		}
		text, ok := ermTextColumns[k.Field]
		if !ok {
			return "", fmt.Errorf("list %s objects: no column for sort field %q", kind, k.Field)
		}
		if k.Desc {
			terms = append(terms, ermFold(text)+` DESC NULLS LAST`)
		} else {
			terms = append(terms, ermFold(text)+` ASC NULLS FIRST`)
		}
	}
	return strings.Join(append(terms, `o.id`), ", "), nil
}

// ermPage returns the number of rows of from that match where and the
// page of them in order, scanned by scan, in one round trip: a count and
// a page, like SQLite's listPage.
func ermPage[T any](ctx context.Context, s *Store, columns, from, where, order string, args ermArgs, page kb.Page,
	scan func(pgx.Rows) (T, error)) (int, []T, error) {
	items := []T{}
	pageArgs := append(ermArgs(nil), args...)
	limit, offset := pageArgs.add(page.Count), pageArgs.add(page.Offset())
	var b pgx.Batch
	b.Queue(`SELECT count(*) FROM `+from+` WHERE `+where, args...)
	b.Queue(`SELECT `+columns+` FROM `+from+` WHERE `+where+` ORDER BY `+order+` LIMIT `+limit+` OFFSET `+offset, pageArgs...)
	br := s.pool.SendBatch(ctx, &b)
	defer br.Close()
	var total int
	if err := br.QueryRow().Scan(&total); err != nil {
		return 0, items, err
	}
	rows, err := br.Query()
	if err != nil {
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
