package kb

import "strings"

// ChangeType is how a resource changed between two holdings transactions,
// as a delta row carries it.
type ChangeType int

// The change types. ChangeNone is a resource a delta leaves out.
const (
	ChangeNone ChangeType = iota
	ChangeAdded
	ChangeUpdated
	ChangeDeleted
	ChangeAddedCoverage
	ChangeDeletedCoverage
)

// changeNames are the change types as a delta page spells them.
var changeNames = [...]string{
	ChangeNone:            "",
	ChangeAdded:           "HOLDING_ADDED",
	ChangeUpdated:         "HOLDING_UPDATED",
	ChangeDeleted:         "HOLDING_DELETED",
	ChangeAddedCoverage:   "HOLDING_UPDATED_ADDED_COVERAGE",
	ChangeDeletedCoverage: "HOLDING_UPDATED_DELETED_COVERAGE",
}

// String returns the change type as a delta page spells it, e.g.
// "HOLDING_ADDED" ("" for ChangeNone).
func (c ChangeType) String() string {
	if c < 0 || int(c) >= len(changeNames) {
		return ""
	}
	return changeNames[c]
}

// coverageColumns are the indexes, in HoldingColumns, of the fields of a
// row's coverage range: date_first_issue_online to num_last_issue_online.
var coverageColumns = [...]int{3, 4, 5, 6, 7, 8}

// ResourceChange decides how a resource (a package and title) changed from
// its rows in the previous transaction to its rows in the current one; a
// resource has one row per coverage range. The rule, in order:
//
//   - rows in the current transaction only: ChangeAdded; in the previous
//     only: ChangeDeleted; in neither: ChangeNone;
//   - the same set of rows in both (order and repeats aside): ChangeNone;
//   - the same fields outside the coverage range (every field but
//     date_first_issue_online to num_last_issue_online, the package's
//     content type included) in both, and the current rows a strict
//     superset of the previous ones: ChangeAddedCoverage; a strict subset:
//     ChangeDeletedCoverage;
//   - anything else (a URL, a name, a range changed in place, a range
//     added while another went): ChangeUpdated.
func ResourceChange(previous, current []ReportHolding) ChangeType {
	switch {
	case len(previous) == 0 && len(current) == 0:
		return ChangeNone
	case len(previous) == 0:
		return ChangeAdded
	case len(current) == 0:
		return ChangeDeleted
	}
	p, c := rowKeys(previous, true), rowKeys(current, true)
	if sameKeys(p, c) {
		return ChangeNone
	}
	if sameKeys(rowKeys(previous, false), rowKeys(current, false)) {
		switch {
		case containsKeys(c, p):
			return ChangeAddedCoverage
		case containsKeys(p, c):
			return ChangeDeletedCoverage
		}
	}
	return ChangeUpdated
}

// rowKeys returns the set of the rows' keys: every field of a row, or
// (coverage false) every field but its coverage range.
func rowKeys(rows []ReportHolding, coverage bool) map[string]bool {
	keys := make(map[string]bool, len(rows))
	var b strings.Builder
	for i := range rows {
		b.Reset()
		v := rows[i].Values
		if !coverage {
			for _, c := range coverageColumns {
				v[c] = ""
			}
		}
		for _, f := range v {
			b.WriteString(f)
			b.WriteByte(0)
		}
		b.WriteString(rows[i].ContentType)
		keys[b.String()] = true
	}
	return keys
}

// sameKeys reports whether two key sets are equal.
func sameKeys(a, b map[string]bool) bool {
	return len(a) == len(b) && containsKeys(a, b)
}

// containsKeys reports whether every key of sub is in set.
func containsKeys(set, sub map[string]bool) bool {
	for k := range sub {
		if !set[k] {
			return false
		}
	}
	return true
}
