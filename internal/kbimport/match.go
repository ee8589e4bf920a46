package kbimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
)

// ImportBatches reads an import's rows from next until io.EOF, readies
// them with prepare in batches of up to size rows (the last may be
// empty) and hands each to fn, so a store matches and writes a batch at a
// time. It reads and readies the next batch while fn works on one, in a
// goroutine of its own (on two cores the reading of the file and the
// store's writes overlap), which calls next and prepare, never after
// ImportBatches returns. It stops at the first error of next, prepare or
// fn, or when ctx is done; on an error of fn it waits for the call of
// next under way to return.
func ImportBatches[B any](ctx context.Context, size int, next func() (kb.ImportRow, error), prepare func([]kb.ImportRow) (B, error),
	fn func(B) error) error {
	type batch struct {
		b    B
		last bool
		err  error
	}
	ch := make(chan batch, 1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			var b batch
			rows := make([]kb.ImportRow, 0, size)
			for len(rows) < size {
				select {
				case <-stop:
					return // fn failed: read no further
				default:
				}
				if b.err = ctx.Err(); b.err != nil {
					break
				}
				row, err := next()
				if errors.Is(err, io.EOF) {
					b.last = true
					break
				}
				if err != nil {
					b.err = err
					break
				}
				rows = append(rows, row)
			}
			if b.err == nil {
				b.b, b.err = prepare(rows)
			}
			select {
			case ch <- b:
			case <-stop:
				return
			}
			if b.last || b.err != nil {
				return
			}
		}
	})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	for b := range ch {
		if b.err != nil {
			return b.err
		}
		if err := fn(b.b); err != nil {
			return err
		}
		if b.last {
			return nil
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
