package finder

import (
	"context"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// MaxCitationTitles bounds the titles a citation is matched to: an
// identifier names a handful, a title a few more; the first this many of
// the customer's selected titles that match, in name order, are kept.
const MaxCitationTitles = 50

// CitationTitles returns the titles of the customer's collection that a
// link resolver's citation names, each with only its resources in the
// collection, and what found them: its ISSNs (print or online alike) or
// ISBNs, else, when no identifier found a title of the collection, its
// title folded as the title search folds names (an exact match). The
// index finds the customer's selected titles that match (so that titles
// of the same name elsewhere in the knowledge base do not crowd the
// customer's out), the store reads the collection's rows of them.
func (s *Service) CitationTitles(ctx context.Context, custID string, c kb.Citation) (titles []kb.Title, matchedBy string, err error) {
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return nil, "", err
	}
	try := func(field kb.SearchField, values []string) ([]kb.Title, error) {
		var ids []int64
		seen := map[int64]bool{}
		for _, v := range values {
			q := kb.TitleQuery{Search: v, Field: field, Type: kb.SearchExactMatch, Selection: kb.SelectionSelected,
				OrderBy: kb.OrderName, Page: kb.Page{Count: MaxCitationTitles, Number: 1}}
			found, _, err := s.live.SearchTitles(ctx, custID, at, q)
			if err != nil {
				return nil, err
			}
			for _, id := range found {
				if !seen[id] && len(ids) < MaxCitationTitles {
					seen[id] = true
					ids = append(ids, id)
				}
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
		return s.store.CollectionTitlesAt(ctx, custID, at, ids)
	}
	for _, by := range []struct {
		name   string
		values []string
	}{{"issn", c.ISSNs}, {"isbn", c.ISBNs}} {
		if len(by.values) == 0 {
			continue
		}
		if titles, err = try(kb.FieldISXN, by.values); err != nil || len(titles) > 0 {
			return titles, by.name, err
		}
	}
	if t := strings.TrimSpace(c.Title); t != "" && kb.CheckSearch("title", t) == nil && len(kb.Words(t)) > 0 {
		if titles, err = try(kb.FieldTitleName, []string{t}); err != nil || len(titles) > 0 {
			return titles, "title", err
		}
	}
	return nil, "", nil
}
