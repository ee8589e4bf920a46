package holdingsapi

import (
	"context"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// pipeBatch is the number of rows a pipeHoldings batch carries.
const pipeBatch = 256

// pipeHoldings reads rows of the customer's snapshot, as st.Holdings does,
// in a goroutine of its own, and hands them to fn in the calling goroutine
// in batches: reading (the store) and encoding (JSON or KBART) then run on
// two cores at once. Three batches are reused, so memory stays flat. fn's
// first error stops the reading and is returned; otherwise the store's.
// Nothing reaches fn before the store has produced a row, so a store error
// such as "no snapshot" comes back before anything was written.
func pipeHoldings(ctx context.Context, st HoldingsReader, custID string, offset, count int, fn func(*kb.Holding) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	const buffers = 3
	full := make(chan []kb.Holding, buffers)
	free := make(chan []kb.Holding, buffers)
	for range buffers {
		free <- make([]kb.Holding, 0, pipeBatch)
	}
	done := make(chan error, 1)
	go func() {
		defer close(full)
		b := <-free
		send := func() error {
			select {
			case full <- b:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case b = <-free:
				b = b[:0]
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		err := st.Holdings(ctx, custID, offset, count, func(h *kb.Holding) error {
			c := *h
			if len(h.Extra) > 0 {
				c.Extra = slices.Clone(h.Extra) // the store reuses h
			}
			b = append(b, c)
			if len(b) < pipeBatch {
				return nil
			}
			return send()
		})
		if err == nil && len(b) > 0 {
			err = send()
		}
		done <- err
	}()
	var ferr error
	for b := range full {
		for i := 0; ferr == nil && i < len(b); i++ {
			if ferr = fn(&b[i]); ferr != nil {
				cancel()
			}
		}
		free <- b
	}
	err := <-done
	if ferr != nil {
		return ferr
	}
	return err
}
