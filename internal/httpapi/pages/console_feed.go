package pages

import (
	"fmt"
	"net/http"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// feedWords says, for the console's package page, how a package feed of
// the operator's keeps the package current: how often it is fetched from
// its publisher and when a run last changed it. "" when no feed names the
// package. Customers see it, read-only: the feeds are the operator's.
func (p *pages) feedWords(r *http.Request, pkg kb.Package) (string, error) {
	feeds, err := p.store.Feeds(r.Context())
	if err != nil {
		return "", fmt.Errorf("feeds: %w", err)
	}
	for _, f := range feeds {
		if f.Holdings || kb.Fold(f.Vendor) != kb.Fold(pkg.VendorName) || kb.Fold(f.Package) != kb.Fold(pkg.Name) {
			continue
		}
		words := "This package is updated " + kb.FeedEveryWords(f.Every) + " from its publisher's file"
		_, runs, err := p.store.FeedHistory(r.Context(), f.ID)
		if err != nil {
			return "", fmt.Errorf("feed %d: %w", f.ID, err)
		}
		for _, run := range runs {
			if run.Outcome == kb.FeedApplied && (run.Added+run.Removed+run.Changed) > 0 {
				return words + "; last change " + run.Finished.UTC().Format(time.DateOnly) + ".", nil
			}
		}
		return words + ".", nil
	}
	return "", nil
}
