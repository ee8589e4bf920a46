// Package resolver is kbserver's link resolver: it takes a citation
// (kb.Citation, read from an OpenURL) to the resources of a customer's
// collection that hold its title, judged against the citation's date or
// volume (coverage, embargo) by the rules of package kb, best first, with
// the links each gives.
//
// Like every search, it asks the search service (package finder) for the
// titles, which asks the index for their ids and the store for their rows
// in the customer's collection; it reads the KBART rows of the resources
// itself only when a citation's volume must be checked against them.
package resolver

import (
	"context"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// Finder is what the resolver asks the search service (finder.Service).
type Finder interface {
	CitationTitles(ctx context.Context, custID string, c kb.Citation) (titles []kb.Title, matchedBy string, err error)
}

// Service resolves citations over customers' collections.
type Service struct {
	finder   Finder
	store    kb.ResolverStore
	recorder kb.ResolverRecorder
	now      func() time.Time
}

// New returns a resolver that finds titles with finder, reads the KBART
// rows of resources from store and records each resolution with rec (nil:
// none).
func New(finder Finder, store kb.ResolverStore, rec kb.ResolverRecorder) *Service {
	return &Service{finder: finder, store: store, recorder: rec, now: time.Now}
}

// WithClock returns a copy of s whose today is now's (tests).
func (s *Service) WithClock(now func() time.Time) *Service {
	c := *s
	c.now = now
	return &c
}

// Today returns the resolver's date: today in UTC.
func (s *Service) Today() time.Time {
	y, m, d := s.now().UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Resolve answers a citation over the customer's collection: every
// resource of the titles it names, judged (kb.Judge), with its links
// (kb.ResolverLinks), best first (kb.SortResolved). A citation with
// nothing to match on matches nothing. The resolution is recorded.
func (s *Service) Resolve(ctx context.Context, custID string, c kb.Citation) (kb.Resolution, error) {
	res := kb.Resolution{Citation: c}
	if !c.Matchable() {
		return res, nil
	}
	titles, by, err := s.finder.CitationTitles(ctx, custID, c)
	if err != nil {
		return res, fmt.Errorf("resolve: %w", err)
	}
	res.MatchedBy = by
	var rows map[kb.ResourceKey]string
	if c.Date == "" && c.Volume != "" {
		var keys []kb.ResourceKey
		for _, t := range titles {
			for _, r := range t.Resources {
				if len(r.CustomCoverage) == 0 {
					keys = append(keys, kb.ResourceKey{PackageID: r.PackageID, TitleID: t.ID})
				}
			}
		}
		if rows, err = s.store.ResourceKBART(ctx, keys); err != nil {
			return res, fmt.Errorf("resolve: %w", err)
		}
	}
	today := s.Today()
	for _, t := range titles {
		for _, r := range t.Resources {
			var ranges []kb.IssueRange
			if rows != nil {
				ranges = kb.IssueRangesFromKBART(rows[kb.ResourceKey{PackageID: r.PackageID, TitleID: t.ID}])
			}
			reason, dated := kb.Judge(c, r, ranges, today)
			one := t
			one.Resources = []kb.Resource{r}
			res.Results = append(res.Results, kb.Resolved{Title: one, Resource: r, Reason: reason, Links: kb.ResolverLinks(c, reason, dated)})
		}
	}
	kb.SortResolved(res.Results)
	if ctx.Value(quietKey{}) == nil {
		s.record(custID, res)
	}
	return res, nil
}

// record hands the resolution to the recorder.
func (s *Service) record(custID string, res kb.Resolution) {
	if s.recorder == nil {
		return
	}
	ev := kb.ResolverEvent{CustomerID: custID, Time: s.now().UTC(), Source: res.Citation.Source, FullText: res.FullText()}
	if len(res.Results) > 0 {
		ev.TitleID, ev.PackageID = res.Results[0].Title.ID, res.Results[0].Resource.PackageID
	}
	if !ev.FullText {
		ev.SoughtTitle = res.Citation.Title
		switch {
		case len(res.Citation.ISSNs) > 0:
			ev.SoughtID = res.Citation.ISSNs[0]
		case len(res.Citation.ISBNs) > 0:
			ev.SoughtID = res.Citation.ISBNs[0]
		}
	}
	s.recorder.RecordResolution(ev)
}

type quietKey struct{}

// Quietly returns ctx marked so that resolutions under it are not
// recorded: the console's test form is no patron's request.
func Quietly(ctx context.Context) context.Context { return context.WithValue(ctx, quietKey{}, true) }
