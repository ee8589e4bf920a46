package kbimport

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestImportBatches checks that the batches come in order and whole,
// that an error of next, prepare or fn ends them, and that after fn
// failed the rows are read at most two batches ahead of it.
func TestImportBatches(t *testing.T) {
	errNext, errPrep, errFn := errors.New("next"), errors.New("prepare"), errors.New("fn")
	for _, c := range []struct {
		name           string
		rows           int
		failNextAt     int // the row whose read fails, 0 for none
		failPrepAt     int // the batch prepare fails, 0 for none
		failFnAt       int // the batch fn fails, 0 for none
		want           error
		wantBatches    int // batches fn saw whole
		wantLastLength int
	}{
		{name: "all", rows: 25, wantBatches: 3, wantLastLength: 5},
		{name: "a multiple of the size", rows: 30, wantBatches: 4, wantLastLength: 0},
		{name: "none", rows: 0, wantBatches: 1, wantLastLength: 0},
		{name: "next fails", rows: 1000, failNextAt: 15, want: errNext, wantBatches: 1},
		{name: "prepare fails", rows: 1000, failPrepAt: 2, want: errPrep, wantBatches: 1},
		{name: "fn fails", rows: 1000, failFnAt: 2, want: errFn, wantBatches: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var read atomic.Int64
			next := func() (kb.ImportRow, error) {
				n := int(read.Add(1))
				if n == c.failNextAt {
					return kb.ImportRow{}, errNext
				}
				if n > c.rows {
					return kb.ImportRow{}, io.EOF
				}
				return kb.ImportRow{Line: n}, nil
			}
			prepared := 0
			prepare := func(rows []kb.ImportRow) ([]int, error) {
				prepared++
				if prepared == c.failPrepAt {
					return nil, errPrep
				}
				lines := make([]int, len(rows))
				for i, r := range rows {
					lines[i] = r.Line
				}
				return lines, nil
			}
			var got [][]int
			err := ImportBatches(context.Background(), 10, next, prepare, func(lines []int) error {
				got = append(got, lines)
				if len(got) == c.failFnAt {
					return errFn
				}
				return nil
			})
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			after := read.Load()
			if c.want != nil && c.failFnAt == 0 {
				if len(got) != c.wantBatches {
					t.Errorf("%d batches, want %d", len(got), c.wantBatches)
				}
			} else if c.want == nil {
				if len(got) != c.wantBatches || len(got[len(got)-1]) != c.wantLastLength {
					t.Errorf("%d batches, the last of %d rows; want %d, %d", len(got), len(got[len(got)-1]), c.wantBatches, c.wantLastLength)
				}
			}
			line := 1
			for _, b := range got {
				if want := seq(line, len(b)); !slices.Equal(b, want) {
					t.Errorf("batch %v, want %v", b, want)
				}
				line += len(b)
			}
			if c.failFnAt > 0 && after > int64(10*(c.failFnAt+2)) {
				t.Errorf("read %d rows after fn failed on batch %d of 10 rows", after, c.failFnAt)
			}
		})
	}
}

// seq returns the n numbers from first.
func seq(first, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = first + i
	}
	return s
}
