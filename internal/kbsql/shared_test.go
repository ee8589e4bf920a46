package kbsql

import (
	"reflect"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestShiftMarks(t *testing.T) {
	// Marks every 2 titles of a package of titles 1..6, one row each.
	marks := []PackageMark{{0, 1}, {2, 3}, {4, 5}}
	// Title 2 excluded (-1), title 4 with three coverage ranges (+2).
	deltas := []RowDelta{{2, -1}, {4, 2}}
	n := SegmentRows(6, deltas)
	if n != 7 {
		t.Fatalf("SegmentRows = %d, want 7", n)
	}
	got := ShiftMarks(marks, deltas, n)
	want := []PackageMark{{0, 1}, {1, 3}, {5, 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ShiftMarks = %v, want %v", got, want)
	}
	// Marks that fall together keep the first; those past the end go.
	got = ShiftMarks([]PackageMark{{0, 1}, {1, 2}, {2, 3}}, []RowDelta{{1, -1}, {2, -1}}, 1)
	if want := []PackageMark{{0, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("ShiftMarks = %v, want %v", got, want)
	}
}

func TestPickKey(t *testing.T) {
	var h kb.KeyHash
	h[0] = 1
	other := h
	other[31] = 9
	cands := []KeyCandidate{{1, "a", "production", other[:], kb.CustomerAt{Root: "p", KB: 4, Titles: 3, Customer: 5}},
		{2, "b", "sandbox", h[:], kb.CustomerAt{Root: "q", KB: 4, Titles: 3, Customer: 7}}}
	k, err := PickKey(cands, h)
	if err != nil || k != (kb.APIKey{ID: 2, CustomerID: "b", Environment: kb.Sandbox, At: kb.CustomerAt{Root: "q", KB: 4, Titles: 3, Customer: 7}}) {
		t.Errorf("PickKey = %+v, %v", k, err)
	}
	if v := k.At.CollectionVersion(); v != "4.7" {
		t.Errorf("PickKey's CollectionVersion = %q, want 4.7", v)
	}
	if _, err := PickKey(cands[:1], h); kb.ErrorCode(err) != kb.CodeUnauthenticated {
		t.Errorf("PickKey without a match: %v", err)
	}
}

func TestERMBodyEscapes(t *testing.T) {
	if _, err := ERMBody("contact 1", []byte(`{"name":"\ud800"}`)); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("ERMBody with a lone surrogate: %v, want CodeInvalid", err)
	}
	if _, err := ERMBody("contact 1", []byte(`{"name":"\ud83d\ude00"}`)); err != nil {
		t.Errorf("ERMBody with a surrogate pair: %v", err)
	}
}
