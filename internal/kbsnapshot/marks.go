package kbsnapshot

// RowDelta is a change the customer made to the row count of one title
// of a managed package selected whole: all its rows off for an excluded
// title, one row per range instead of its KBART rows for custom coverage.
type RowDelta struct {
	Title int64
	Rows  int64
}

// PackageMark is a mark of a package: the row offset (from 0) at which a
// title's rows start.
type PackageMark struct {
	Offset int64
	Title  int64
}

// SegmentRows returns the row count of a managed package's segment: the
// package's rows changed by the customer's deltas.
func SegmentRows(rows int64, deltas []RowDelta) int64 {
	for _, d := range deltas {
		rows += d.Rows
	}
	return rows
}

// ShiftMarks returns the marks of a managed package's segment of n rows
// (n > 0; see SegmentRows): the package's import marks (in offset order),
// each moved by the deltas (in title order) of the titles before it. A
// mark on an excluded title still marks where the next included title
// starts; marks that fall together keep the first, marks at or past the
// segment's end are dropped.
func ShiftMarks(marks []PackageMark, deltas []RowDelta, n int64) []PackageMark {
	var out []PackageMark
	var shift int64
	last := int64(-1)
	for _, m := range marks {
		for len(deltas) > 0 && deltas[0].Title < m.Title {
			shift += deltas[0].Rows
			deltas = deltas[1:]
		}
		off := m.Offset + shift
		if off == last || off >= n {
			continue
		}
		last = off
		out = append(out, PackageMark{Offset: off, Title: m.Title})
	}
	return out
}
