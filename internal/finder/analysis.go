package finder

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
)

// Holdings returns the customer's holdings in the search index, at the
// customer's versions (as its searches see the knowledge base): each
// package's titles and the titles the customer selects, for the
// collection analysis. Whether the customer may see a package is the
// caller's to check.
func (s *Service) Holdings(ctx context.Context, custID string) (*search.Holdings, kb.CustomerAt, error) {
	at, err := s.customerAt(ctx, custID)
	if err != nil {
		return nil, at, err
	}
	h, err := s.live.Holdings(ctx, custID, at)
	return h, at, err
}
