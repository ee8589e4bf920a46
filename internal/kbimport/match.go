package kbimport

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kbserver/kbserver/internal/kb"
)

// ImportBatches reads an import's rows from next until io.EOF and hands
// them to fn in batches of up to size rows (the last may be empty), so a
// store matches and writes a batch at a time. It stops at the first error
// of next or fn, or when ctx is done.
func ImportBatches(ctx context.Context, size int, next func() (kb.ImportRow, error), fn func([]kb.ImportRow) error) error {
	batch := make([]kb.ImportRow, 0, size)
	for done := false; !done; {
		batch = batch[:0]
		for len(batch) < size {
			if err := ctx.Err(); err != nil {
				return err
			}
			row, err := next()
			if errors.Is(err, io.EOF) {
				done = true
				break
			}
			if err != nil {
				return err
			}
			batch = append(batch, row)
		}
		if err := fn(batch); err != nil {
			return err
		}
	}
	return nil
}

// PrepareRows readies a batch's rows for matching (prepareRow each); an
// error names the line of the first bad row.
func PrepareRows(rows []kb.ImportRow) ([]ImportRow, error) {
	ps := make([]ImportRow, len(rows))
	for i := range rows {
		p, err := prepareRow(&rows[i])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", rows[i].Line, err)
		}
		ps[i] = p
	}
	return ps, nil
}
