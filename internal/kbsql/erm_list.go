package kbsql

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// ermTimeColumns are the columns of the date fields.
var ermTimeColumns = map[kb.ERMField]string{
	kb.FieldDateCreated: `o.created`,
	kb.FieldDateUpdated: `o.updated`,
}

// ermTextColumn returns the expression, in erm_objects o, of a field
// compared and sorted as text: the status and description columns, and
// the body's members at ERMBodyPaths (NULL when a member is missing).
func (s *Store) ermTextColumn(f kb.ERMField) (string, bool) {
	switch f {
	case kb.FieldStatus:
		return `o.status`, true
	case kb.FieldDescription:
		return `o.description`, true
	}
	path, ok := ERMBodyPaths[f]
	if !ok {
		return "", false
	}
	return s.d.ERMField(path), true
}

// ERMObjects lists a page of the customer's objects of q.Kind, with the
// number that match. The filter and the sort keys must be fields of the
// kind (kb.ERMKind.CheckFilter and CheckSort, else CodeInvalid). The
// status and the document URL match exactly; the other text fields match
// by "contains", without regard to ASCII case, and all text fields sort
// without regard to it, in byte order. An object without the field (a JSON
// member missing) matches no text filter and sorts first in ascending
// order. The default order is newest first; ties always end in id order.
func (s *Store) ERMObjects(ctx context.Context, custID string, q kb.ERMQuery) (kb.ERMList, error) {
	list := kb.ERMList{Objects: []kb.ERMObject{}}
	if _, err := kb.ParseERMKind(string(q.Kind)); err != nil {
		return list, err
	}
	if err := CheckERMPage(q.Page); err != nil {
		return list, err
	}
	var args Args
	cust := args.Add(custID)
	where := []string{`o.customer_id = ` + cust, `o.kind = ` + args.Add(string(q.Kind))}
	if q.Filter != nil {
		conds, err := s.ermFilter(q.Kind, *q.Filter, cust, &args)
		if err != nil {
			return list, err
		}
		where = append(where, conds...)
	}
	if q.AssignedTo != "" {
		url := args.Add(q.AssignedTo)
		// Uncorrelated: run once per list, by the two URL indexes.
		where = append(where, `o.id IN (SELECT a.object_id FROM erm_assignments a
			WHERE a.customer_id = `+cust+` AND (a.relative_url = `+url+` OR a.link_url = `+url+`))`)
	}
	order, err := s.ermOrder(q.Kind, q.Sort)
	if err != nil {
		return list, err
	}
	list.Total, list.Objects, err = ListPage(ctx, s.e.Read(), ERMColumns, `erm_objects o`, strings.Join(where, " AND "), order, args, q.Page,
		func(rows Rows) (kb.ERMObject, error) { return ScanERMObject(rows) })
	if err != nil {
		return list, fmt.Errorf("list %s objects: %w", q.Kind, err)
	}
	return list, nil
}

// ermFilter returns the conditions on erm_objects o of a filter of a list
// of kind, adding their arguments to args (cust is the customer's
// placeholder). User text is only ever an argument. Conditions on
// assignments are uncorrelated IN subqueries: they run once per list, not
// once per object.
func (s *Store) ermFilter(kind kb.ERMKind, f kb.ERMFilter, cust string, args *Args) ([]string, error) {
	if err := kind.CheckFilter(f.Field); err != nil {
		return nil, err
	}
	switch f.Field {
	case kb.FieldAssignmentID:
		return []string{`o.id IN (SELECT a.object_id FROM erm_assignments a WHERE a.customer_id = ` + cust +
			` AND a.id = ` + args.Add(f.Text) + `)`}, nil
	case kb.FieldDateCreated, kb.FieldDateUpdated:
		col := ermTimeColumns[f.Field]
		var conds []string
		if !f.From.IsZero() {
			conds = append(conds, col+` >= `+args.Add(FormatERMTime(f.From)))
		}
		if !f.To.IsZero() {
			conds = append(conds, col+` < `+args.Add(FormatERMTime(f.To)))
		}
		return conds, nil
	}
	col, ok := s.ermTextColumn(f.Field)
	if !ok { // a field CheckFilter allows that this store does not know
		return nil, fmt.Errorf("list %s objects: no column for field %q", kind, f.Field)
	}
	if f.Field == kb.FieldStatus || f.Field == kb.FieldDocumentURL {
		return []string{col + ` = ` + args.Add(f.Text)}, nil
	}
	// LIKE with the text escaped: % and _ in it are characters.
	pattern := `%` + EscapeLike(asciiLower(f.Text)) + `%`
	return []string{s.d.FoldASCII(col) + ` LIKE ` + args.Add(pattern) + ` ESCAPE '\'`}, nil
}

// ermOrder returns the ORDER BY of a list of kind sorted by keys: each
// key's column (text folded as FoldASCII folds it), then the id; newest
// first when keys is empty. A missing member (NULL) sorts first ascending
// and last descending.
func (s *Store) ermOrder(kind kb.ERMKind, keys []kb.ERMSort) (string, error) {
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
		text, ok := s.ermTextColumn(k.Field)
		if !ok {
			return "", fmt.Errorf("list %s objects: no column for sort field %q", kind, k.Field)
		}
		if k.Desc {
			terms = append(terms, s.d.FoldASCII(text)+` DESC NULLS LAST`)
		} else {
			terms = append(terms, s.d.FoldASCII(text)+` ASC NULLS FIRST`)
		}
	}
	return strings.Join(append(terms, `o.id`), ", "), nil
}

// asciiLower folds the ASCII letters of s to lower case and leaves every
// other byte alone: Dialect.FoldASCII's folding, done before the text is
// sent.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// EscapeLike escapes the LIKE wildcards (% and _) and the escape
// character (\) of s.
func EscapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
