package gen

import (
	"errors"
	"io"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// WriteKBART writes one package's title list of n rows as a KBART Phase II
// file: titles 0, 1, 2 … of the pool of n titles generated with seed (a
// few of them with two coverage ranges, i.e. two rows). Seed 0 is taken as
// 1, as in Options. It is meant for import benchmarks.
func WriteKBART(w io.Writer, n int, seed int64) error {
	if n < 0 {
		return errors.New("gen: the number of rows must not be negative")
	}
	if n > MaxTitles {
		return errors.New("gen: too many rows")
	}
	if seed == 0 {
		seed = 1
	}
	g := newGenerator(seed, max(n, 1))
	kw := kbart.NewWriter(w) // buffered
	rc := resCtx{pkg: mix(0xbe4c), content: kb.ContentUnknown}
	for i, rows := 0, 0; rows < n; i++ {
		rc.line = rows + 2
		row, two := g.row(i, rc, 0)
		if err := kw.Write(row.KBART[:]); err != nil {
			return err
		}
		rows++
		if two && rows < n {
			rc.line++
			row, _ = g.row(i, rc, 2)
			if err := kw.Write(row.KBART[:]); err != nil {
				return err
			}
			rows++
		}
	}
	return kw.Flush()
}
