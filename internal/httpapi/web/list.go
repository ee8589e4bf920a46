package web

import (
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// maxPageNumber is the largest offset (a page number) of a list.
const maxPageNumber = 1_000_000

// Page reads the paging parameters of a list: count, the page size, 1 to
// kb.MaxCount (defaultCount when absent), and offset, the page number
// counted from 1 (1 when absent).
func Page(q Query, defaultCount int) (kb.Page, error) {
	p := kb.Page{Count: defaultCount, Number: 1}
	if s := q.Get("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > kb.MaxCount {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter count is outside the range 1-%d (got %q).", kb.MaxCount, s)
		}
		p.Count = n
	}
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter offset must be a page number of 1 or more (got %q).", s)
		}
		if n > maxPageNumber {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter offset is too large (got %q); at most %d.", s, maxPageNumber)
		}
		p.Number = n
	}
	return p, nil
}

// OrderBy reads the orderby parameter of a list: relevance or byName (the
// list's name order: titlename, packagename or vendorname), in any case,
// or 0 (relevance) or 1 (name). An absent or empty parameter is
// kb.OrderDefault.
func OrderBy(q Query, byName string) (kb.Order, error) {
	switch s := q.Get("orderby"); {
	case s == "":
		return kb.OrderDefault, nil
	case strings.EqualFold(s, "relevance") || s == "0":
		return kb.OrderRelevance, nil
	case strings.EqualFold(s, byName) || s == "1":
		return kb.OrderName, nil
	default:
		return 0, kb.Errorf(kb.CodeInvalid, "Parameter orderby has an invalid value %q: allowed values are relevance, %s (or 0-1).", s, byName)
	}
}
