package analysisapi

import (
	"context"
	"slices"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// The rows of a list's page, as the API and the console's pages show
// them: the store's titles and their resources' link-out clicks.

// Clicks are the link-out clicks of a page's resources in the months
// From to To (both counted), from the A–Z page and the link resolver
// together.
type Clicks struct {
	From, To kb.Month
	Of       map[kb.ResourceKey]int64
}

// clicksOf sums uses by resource.
func clicksOf(from, to kb.Month, uses []kb.LinkUse) Clicks {
	c := Clicks{From: from, To: to, Of: map[kb.ResourceKey]int64{}}
	for _, u := range uses {
		c.Of[u.Key] += u.AZ + u.Resolver
	}
	return c
}

// UseWindow returns the months whose clicks the lists show beside each
// resource as of now: this month and the kb.UseMonths-1 before.
func UseWindow(now time.Time) (from, to kb.Month) {
	to = kb.MonthOf(now)
	return to.AddMonths(1 - kb.UseMonths), to
}

// Rows reads a list's page: the titles ids, read at the versions at
// (in the order of ids), and their resources' link-out clicks in the
// last kb.UseMonths months.
func Rows(ctx context.Context, store Store, custID string, at kb.CustomerAt, ids []int64) ([]kb.Title, Clicks, error) {
	titles, err := store.TitlesAt(ctx, custID, at, ids, 0)
	if err != nil {
		return nil, Clicks{}, err
	}
	from, to := UseWindow(time.Now())
	uses, err := store.LinkOutUse(ctx, custID, ids, from, to)
	if err != nil {
		return nil, Clicks{}, err
	}
	return titles, clicksOf(from, to, uses), nil
}

// Shown reports whether a list of q shows a title's resource r: for
// packages compared, those in the packages; for a package against the
// holdings, that package's and the customer's selected resources
// elsewhere.
func Shown(q kb.OverlapQuery, r kb.Resource) bool {
	if slices.Contains(q.PackageIDs, r.PackageID) {
		return true
	}
	return q.AgainstHoldings && r.IsSelected
}

// SelectedShown reports whether the duplicates' list shows r: the
// customer's selected resources.
func SelectedShown(r kb.Resource) bool { return r.IsSelected }
