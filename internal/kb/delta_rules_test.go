package kb

import "testing"

// reportRow returns a holding row of title "T" with a coverage range and
// a URL.
func reportRow(begin, end, url string) ReportHolding {
	var h ReportHolding
	h.Values[0] = "T"
	h.Values[3], h.Values[6] = begin, end
	h.Values[9] = url
	h.Values[26] = "7"
	h.TitleID = 42
	h.ContentType = "EJournal"
	return h
}

func TestCoverageColumns(t *testing.T) {
	want := []string{"date_first_issue_online", "num_first_vol_online", "num_first_issue_online",
		"date_last_issue_online", "num_last_vol_online", "num_last_issue_online"}
	for i, c := range coverageColumns {
		if HoldingColumns[c] != want[i] {
			t.Errorf("coverage column %d is %s, want %s", c, HoldingColumns[c], want[i])
		}
	}
}

func TestResourceChange(t *testing.T) {
	a := reportRow("2000-01-01", "2004-12-31", "http://x/a")
	b := reportRow("2010-01-01", "", "http://x/a")
	aMoved := reportRow("2001-01-01", "2004-12-31", "http://x/a")
	aURL := reportRow("2000-01-01", "2004-12-31", "http://x/new")
	bURL := reportRow("2010-01-01", "", "http://x/new")
	aType := a
	aType.ContentType = "EBook"
	aNotes := a
	aNotes.Values[14] = "a note"
	rows := func(r ...ReportHolding) []ReportHolding { return r }
	tests := []struct {
		name           string
		previous, curr []ReportHolding
		want           ChangeType
	}{
		{"in neither", nil, nil, ChangeNone},
		{"new resource", nil, rows(a), ChangeAdded},
		{"new resource with two ranges", nil, rows(a, b), ChangeAdded},
		{"gone resource", rows(a, b), nil, ChangeDeleted},
		{"unchanged", rows(a), rows(a), ChangeNone},
		{"unchanged, rows in another order", rows(a, b), rows(b, a), ChangeNone},
		{"unchanged, a row repeated", rows(a, a), rows(a), ChangeNone},
		{"range added", rows(a), rows(a, b), ChangeAddedCoverage},
		{"range removed", rows(a, b), rows(b), ChangeDeletedCoverage},
		{"range changed in place", rows(a), rows(aMoved), ChangeUpdated},
		{"one range replaced by another", rows(a), rows(b), ChangeUpdated},
		{"range added while another moved", rows(a), rows(aMoved, b), ChangeUpdated},
		{"URL changed", rows(a), rows(aURL), ChangeUpdated},
		{"URL changed and range added", rows(a), rows(aURL, bURL), ChangeUpdated},
		{"URL changed and range removed", rows(a, b), rows(bURL), ChangeUpdated},
		{"package content type changed", rows(a), rows(aType), ChangeUpdated},
		{"note changed", rows(a), rows(aNotes), ChangeUpdated},
	}
	for _, tt := range tests {
		if got := ResourceChange(tt.previous, tt.curr); got != tt.want {
			t.Errorf("%s: ResourceChange = %q (%d), want %q (%d)", tt.name, got, got, tt.want, tt.want)
		}
	}
}

func TestChangeTypeString(t *testing.T) {
	tests := []struct {
		c    ChangeType
		want string
	}{
		{ChangeNone, ""},
		{ChangeAdded, "HOLDING_ADDED"},
		{ChangeUpdated, "HOLDING_UPDATED"},
		{ChangeDeleted, "HOLDING_DELETED"},
		{ChangeAddedCoverage, "HOLDING_UPDATED_ADDED_COVERAGE"},
		{ChangeDeletedCoverage, "HOLDING_UPDATED_DELETED_COVERAGE"},
		{ChangeType(99), ""},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("ChangeType(%d).String() = %q, want %q", tt.c, got, tt.want)
		}
	}
}
