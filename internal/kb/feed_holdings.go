package kb

import (
	"context"
	"slices"
)

// A customer's holdings feed (NISO RP-26): the institution's own KBART
// file, served by its publisher, lists the titles of a package of the
// knowledge base that the institution holds. A run matches the file's
// rows to the package's titles by the knowledge base's identity rules
// (PickHoldingsTitle) and makes the customer's selection of the package
// exactly the matched titles (PlanHoldings): it selects those not
// selected, deselects the others, and leaves the titles that stay
// selected as they were, with the customer's customisation. The file's
// own coverage is not applied: the package's coverage stays, and the
// customer's custom coverage of a title that stays is kept.

// HoldingsFileAction is the action of the change a holdings file makes to
// a customer's selection of a package.
const HoldingsFileAction = "feed.holdings"

// HoldingsRow is what a holdings feed matches of one row of the file.
type HoldingsRow struct {
	Line       int
	ProviderID string // the row's title_id
	// Norms are its valid ISSNs and ISBNs, normalised (NormalizeISSN,
	// NormalizeISBN), in the row's order: print, then online.
	Norms []string
	Name  string // its publication_title, folded (Fold)
}

// HoldingsCandidates are the package's titles that a row's keys name,
// each list ascending: by the row's title_id, by each of its valid
// identifiers in the row's order, and by its folded name.
type HoldingsCandidates struct {
	ByProvider   []int64
	ByIdentifier [][]int64
	ByName       []int64
}

// PickHoldingsTitle applies the identity rules of the imports to a row of
// a holdings file, within the package: the title its title_id names; else
// the title its first valid identifier that names one names (the oldest,
// the lowest id, when several do, as an import takes it); else, for a row
// without a valid identifier, the one title of the package with its name.
// A name that several of the package's titles have names none of them:
// the row matches nothing rather than a guess; and a row whose valid
// identifiers name no title of the package is not matched by its name
// (an import would make it a title of its own). It returns 0 for no
// match.
func PickHoldingsTitle(c HoldingsCandidates) int64 {
	if len(c.ByProvider) > 0 {
		return c.ByProvider[0]
	}
	for _, ids := range c.ByIdentifier {
		if len(ids) > 0 {
			return ids[0]
		}
	}
	if len(c.ByIdentifier) == 0 && len(c.ByName) == 1 {
		return c.ByName[0]
	}
	return 0
}

// PlanHoldings compares the titles a customer selected (was) with those a
// holdings file names (want), both ascending and without repeats: the
// titles to select, those to deselect, and how many stay selected.
func PlanHoldings(was, want []int64) (sel, desel []int64, kept int) {
	sel, desel = []int64{}, []int64{}
	i, j := 0, 0
	for i < len(was) || j < len(want) {
		switch {
		case j == len(want) || i < len(was) && was[i] < want[j]:
			desel = append(desel, was[i])
			i++
		case i == len(was) || want[j] < was[i]:
			sel = append(sel, want[j])
			j++
		default:
			kept++
			i++
			j++
		}
	}
	return sel, desel, kept
}

// SortedUnique sorts ids and drops repeats and zeros, in place; it
// returns the shortened slice.
func SortedUnique(ids []int64) []int64 {
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > 0 && ids[0] == 0 {
		ids = ids[1:]
	}
	return ids
}

// HoldingsWrite says how SetHoldings writes.
type HoldingsWrite struct {
	// FeedID is the feed the change is recorded as made by.
	FeedID int64
	// DryRun counts and lists what the write would do, changing nothing.
	DryRun bool
	// Keep are titles left as they are, selected or not: those that rows
	// of the file the KBART reader refused name, which the file may list
	// or not (an import keeps such titles in its package too).
	Keep []int64
}

// HoldingsResult is what a holdings file did, or with DryRun would do, to
// a customer's selection of a package.
type HoldingsResult struct {
	// WasSelected and NowSelected count the package's titles the
	// customer selected before and after.
	WasSelected, NowSelected int
	// Selected and Deselected are the titles the file selected and
	// deselected, ascending; Kept counts those that stay selected, with
	// their customisation.
	Selected, Deselected []int64
	Kept                 int
	// Outside counts the titles given that are not in the package (it
	// changed since they were matched); they are left out.
	Outside int
}

// HoldingsStore matches a holdings file's rows to a package's titles and
// sets a customer's selection of the package.
type HoldingsStore interface {
	// MatchHoldings returns, for each row, the title of package
	// packageID that PickHoldingsTitle picks, or 0.
	MatchHoldings(ctx context.Context, packageID int64, rows []HoldingsRow) ([]int64, error)
	// SetHoldings makes customer custID's selected titles of the
	// knowledge base's package packageID (of vendor vendorID) exactly
	// titles (with those of w.Keep that are selected), in one
	// transaction: it selects those not selected, deselects the others
	// (clearing their customisation, as a deselection does) and leaves
	// those that stay selected as they are. It keeps the selection as the
	// package selected as a whole with exceptions when more than half its
	// titles are selected, else title by title, whichever it was: the
	// rows it writes are the fewer.
	// The change is recorded as the feed's. A Complete package's titles
	// are selected with the package: titles must then be all of them or
	// none (else CodeNotAllowed). NotFound("Package") when the customer
	// cannot see the package; CodeNotAllowed for a custom package.
	SetHoldings(ctx context.Context, custID string, vendorID, packageID int64, titles []int64, w HoldingsWrite) (HoldingsResult, error)
}
