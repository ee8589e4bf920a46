package kb

import (
	"context"
	"time"
)

// Resolution is a link resolver's answer to a citation: the citation as
// understood, how its titles were found, and every resource of the
// customer's collection that holds them, judged and best first.
type Resolution struct {
	Citation Citation
	// MatchedBy is "issn", "isbn" or "title": what found the titles; ""
	// when nothing did.
	MatchedBy string
	Results   []Resolved
}

// FullText reports whether some result gives the full text.
func (r Resolution) FullText() bool {
	return len(r.Results) > 0 && r.Results[0].Covered()
}

// ResolverEvent is one resolver request as its statistics keep it.
type ResolverEvent struct {
	CustomerID string
	Time       time.Time
	Source     string // the citing source (sid, rfr_id); "" when none
	FullText   bool
	// The best result's title and package; 0 when nothing matched.
	TitleID, PackageID int64
	// What the patron sought, kept for requests without full text (the
	// unmet demand): the citation's title and its first ISSN or ISBN.
	SoughtTitle, SoughtID string
}

// ResolverRecorder takes resolver events; it must not block a request.
type ResolverRecorder interface {
	RecordResolution(ev ResolverEvent)
}

// ResolverStore is what the resolver service reads beyond the search
// service: the KBART rows of resources, whose volumes it checks.
type ResolverStore interface {
	// ResourceKBART returns the KBART rows of the resources (newline
	// separated, tab-separated fields, as imported); a resource without
	// rows (custom titles) is left out.
	ResourceKBART(ctx context.Context, keys []ResourceKey) (map[ResourceKey]string, error)
}
