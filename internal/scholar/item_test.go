package scholar

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/kb"
)

// kbartRow returns a KBART row with its dates, volumes and issues set
// (the fields IssueRangesFromKBART reads) and the rest empty.
func kbartRow(first, volFirst, issueFirst, last, volLast, issueLast string) string {
	f := make([]string, kb.KBARTFieldCount)
	f[0] = "A Journal"
	f[3], f[4], f[5], f[6], f[7], f[8] = first, volFirst, issueFirst, last, volLast, issueLast
	return strings.Join(f, "\t")
}

func issn(sub kb.IdentifierSubtype, v string) kb.Identifier {
	return kb.Identifier{ID: v, Type: kb.IdentISSN, Subtype: sub}
}

// holding returns a selected, visible journal with a print and an online
// ISSN and r's coverage and embargoes.
func holding(r kb.Resource, kbart string) *kb.SerialHolding {
	r.IsSelected = true
	return &kb.SerialHolding{
		Title: kb.Title{ID: 7, Name: "Journal of Testing", PubType: kb.ResourceJournal,
			Identifiers: []kb.Identifier{issn(kb.SubtypePrint, "0317-8471"), issn(kb.SubtypeOnline, "1050-124X")}},
		Resource: r,
		KBART:    kbart,
	}
}

func TestItemOf(t *testing.T) {
	both := []string{"0317-8471", "1050-124X"}
	managed := []kb.Coverage{{Begin: "2005-01-01"}, {Begin: "1990-01-01", End: "1999-12-31"}}
	rows := kbartRow("1990", "1", "1", "1999", "10", "4") + "\n" + kbartRow("2005-01-01", "16", "", "", "", "")
	for _, c := range []struct {
		name string
		h    *kb.SerialHolding
		want *Item // nil: no item
	}{
		{
			name: "managed coverage with the volumes of its KBART rows, managed embargo in months",
			h:    holding(kb.Resource{ManagedCoverage: managed, ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}}, rows),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{
				{From: Issue{Year: 2005, Month: 1, Volume: 16}, DaysNotAvailable: 180},
				{From: Issue{Year: 1990, Month: 1, Volume: 1, Issue: 1}, To: Issue{Year: 1999, Month: 12, Volume: 10, Issue: 4}, DaysNotAvailable: 180},
			}},
		},
		{
			name: "managed coverage without KBART rows: dates only",
			h:    holding(kb.Resource{ManagedCoverage: managed[1:]}, ""),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{
				{From: Issue{Year: 1990, Month: 1}, To: Issue{Year: 1999, Month: 12}},
			}},
		},
		{
			name: "a KBART row whose dates match no range gives no volumes",
			h:    holding(kb.Resource{ManagedCoverage: managed[1:]}, kbartRow("1991", "2", "", "1999", "10", "")),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{
				{From: Issue{Year: 1990, Month: 1}, To: Issue{Year: 1999, Month: 12}},
			}},
		},
		{
			name: "custom coverage replaces managed, without volumes; custom embargo in years replaces managed",
			h: holding(kb.Resource{ManagedCoverage: managed, CustomCoverage: []kb.Coverage{{Begin: "2001-03-15", End: "2004-06-30"}},
				ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}, CustomEmbargo: kb.Embargo{Unit: kb.EmbargoYears, Value: 2}}, rows),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{
				{From: Issue{Year: 2001, Month: 3}, To: Issue{Year: 2004, Month: 6}, DaysNotAvailable: 730},
			}},
		},
		{
			name: "a custom embargo alone replaces the managed one over managed coverage",
			h: holding(kb.Resource{ManagedCoverage: managed[:1], ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoYears, Value: 1},
				CustomEmbargo: kb.Embargo{Unit: kb.EmbargoDays, Value: 90}}, rows),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{
				{From: Issue{Year: 2005, Month: 1, Volume: 16}, DaysNotAvailable: 90},
			}},
		},
		{
			name: "no coverage and no embargo: every issue",
			h:    holding(kb.Resource{}, ""),
			want: &Item{Title: "Journal of Testing", ISSNs: both},
		},
		{
			name: "no coverage with an embargo in weeks: one coverage of the embargo alone",
			h:    holding(kb.Resource{ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoWeeks, Value: 3}}, ""),
			want: &Item{Title: "Journal of Testing", ISSNs: both, Coverage: []Range{{DaysNotAvailable: 21}}},
		},
		{
			name: "a book is no serial",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Title.PubType = kb.ResourceBook
				return h
			}(),
		},
		{
			name: "every serial type counts: a newspaper",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Title.PubType = kb.ResourceNewspaper
				return h
			}(),
			want: &Item{Title: "Journal of Testing", ISSNs: both},
		},
		{
			name: "not selected",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Resource.IsSelected = false
				return h
			}(),
		},
		{
			name: "hidden",
			h:    holding(kb.Resource{Visibility: kb.Visibility{Hidden: true}}, ""),
		},
		{
			name: "no ISSN: an ISBN does not count",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Title.Identifiers = []kb.Identifier{{ID: "978-0-306-40615-7", Type: kb.IdentISBN, Subtype: kb.SubtypeOnline}}
				return h
			}(),
		},
		{
			name: "an ISSN whose check digit fails does not count",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Title.Identifiers = []kb.Identifier{issn(kb.SubtypePrint, "0317-8472")}
				return h
			}(),
		},
		{
			name: "ISSNs normalized, print first, repeats dropped, others last",
			h: func() *kb.SerialHolding {
				h := holding(kb.Resource{}, "")
				h.Title.Identifiers = []kb.Identifier{issn(kb.SubtypeEmpty, "2049-3630"), issn(kb.SubtypeOnline, "1050124x"),
					issn(kb.SubtypePrint, "0317 8471"), issn(kb.SubtypeOnline, "0317-8471"), issn(kb.SubtypePrint, "bad")}
				return h
			}(),
			want: &Item{Title: "Journal of Testing", ISSNs: []string{"0317-8471", "1050-124X", "2049-3630"}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := ItemOf(c.h)
			if c.want == nil {
				if ok {
					t.Fatalf("ItemOf = %+v, want no item", got)
				}
				return
			}
			if !ok {
				t.Fatal("ItemOf gave no item")
			}
			if diff := cmp.Diff(*c.want, got, cmp.Comparer(func(a, b []Range) bool { return cmp.Equal(nilIfEmpty(a), nilIfEmpty(b)) })); diff != "" {
				t.Errorf("ItemOf (-want +got):\n%s", diff)
			}
		})
	}
}

func nilIfEmpty(rs []Range) []Range {
	if len(rs) == 0 {
		return nil
	}
	return rs
}

func TestEmbargoDays(t *testing.T) {
	for _, c := range []struct {
		e    kb.Embargo
		want int
	}{
		{kb.Embargo{}, 0},
		{kb.Embargo{Unit: kb.EmbargoDays, Value: 45}, 45},
		{kb.Embargo{Unit: kb.EmbargoWeeks, Value: 2}, 14},
		{kb.Embargo{Unit: kb.EmbargoMonths, Value: 12}, 360},
		{kb.Embargo{Unit: kb.EmbargoYears, Value: 3}, 1095},
		{kb.Embargo{Unit: kb.EmbargoYears, Value: 0}, 0},
		{kb.Embargo{Unit: kb.EmbargoMonths, Value: -1}, 0},
		{kb.Embargo{Unit: kb.EmbargoNone, Value: 5}, 0},
	} {
		if got := EmbargoDays(c.e); got != c.want {
			t.Errorf("EmbargoDays(%+v) = %d, want %d", c.e, got, c.want)
		}
	}
}

func TestIssueAt(t *testing.T) {
	for _, c := range []struct {
		date  string
		month int
		want  Issue
	}{
		{"1999-12-31", 1, Issue{Year: 1999, Month: 12}},
		{"2001-03", 1, Issue{Year: 2001, Month: 3}},
		{"2001", 12, Issue{Year: 2001, Month: 12}},
		{"2001", 1, Issue{Year: 2001, Month: 1}},
		{"", 1, Issue{}},
		{"19x9-01-01", 1, Issue{}},
		{"0000-01-01", 1, Issue{}},
		{"2001-13-01", 1, Issue{Year: 2001, Month: 1}},
	} {
		if got := issueAt(c.date, c.month); got != c.want {
			t.Errorf("issueAt(%q, %d) = %+v, want %+v", c.date, c.month, got, c.want)
		}
	}
}
