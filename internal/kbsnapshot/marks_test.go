package kbsnapshot

import (
	"reflect"
	"testing"
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
