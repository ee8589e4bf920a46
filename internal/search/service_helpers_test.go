package search

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// testFeed is a store's feed that also reads a customer's versions, as a
// request does once before it searches (kb.SearchedStore's CustomerVersions).
type testFeed interface {
	kb.TitleFeed
	CustomerVersions(ctx context.Context, custID string) (kb.CustomerAt, error)
}

// nowAt reads the customer's versions from l's store, as a request does
// before it searches (for a customer the store does not have, the titles'
// version and a customer version of 0, as a store reads for one that has
// never written); it panics when the store cannot (a test's mistake).
func nowAt(ctx context.Context, l *Live, custID string) kb.CustomerAt {
	at, err := l.feed.(testFeed).CustomerVersions(ctx, custID)
	if kb.ErrorCode(err) == kb.CodeNotFound {
		at = kb.CustomerAt{Root: "none"}
		at.Titles, err = l.feed.TitlesVersion(ctx)
	}
	if err != nil {
		panic("read the customer's versions: " + err.Error())
	}
	return at
}
