package kbfeed

import (
	"context"
	"sync"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// prefetchChunk is the number of rows a prefetching reader hands over at
// once; prefetchAhead the chunks it may read ahead of its consumer.
const (
	prefetchChunk = 1024
	prefetchAhead = 4
)

// prefetch reads a query's rows in a goroutine of its own, each turned
// into a T by scan, and hands them to its consumer in chunks, so that the
// reads of several streams (and the consumer's work) run at once. The
// consumer calls next until it reports false, then err; close ends the
// read early and waits for the goroutine.
type prefetch[T any] struct {
	chunks  chan []T
	stop    chan struct{}
	done    sync.WaitGroup
	cur     []T
	ended   bool  // chunks was closed: readErr is set
	readErr error // written by the reader before it closes chunks
}

// newPrefetch runs query and starts reading its rows.
func newPrefetch[T any](ctx context.Context, q kbsql.Querier, query string, scan func(kbsql.Rows) (T, error)) (*prefetch[T], error) {
	rows, err := q.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	p := &prefetch[T]{chunks: make(chan []T, prefetchAhead), stop: make(chan struct{})}
	p.done.Go(func() {
		defer close(p.chunks)
		defer rows.Close()
		send := func(chunk []T) bool {
			select {
			case p.chunks <- chunk:
				return true
			case <-p.stop:
				return false
			}
		}
		chunk := make([]T, 0, prefetchChunk)
		for rows.Next() {
			v, err := scan(rows)
			if err != nil {
				p.readErr = err
				return
			}
			if chunk = append(chunk, v); len(chunk) == prefetchChunk {
				if !send(chunk) {
					return
				}
				chunk = make([]T, 0, prefetchChunk)
			}
		}
		if p.readErr = rows.Err(); p.readErr == nil && len(chunk) > 0 {
			send(chunk)
		}
	})
	return p, nil
}

// peek returns the next row without taking it; ok is false at the end of
// the rows (or of a failed read: see err).
func (p *prefetch[T]) peek() (v *T, ok bool) {
	for len(p.cur) == 0 {
		if p.ended {
			return nil, false
		}
		if p.cur, ok = <-p.chunks; !ok {
			p.ended = true
		}
	}
	return &p.cur[0], true
}

// next returns the next row and takes it.
func (p *prefetch[T]) next() (T, bool) {
	v, ok := p.peek()
	if !ok {
		var zero T
		return zero, false
	}
	p.cur = p.cur[1:]
	return *v, true
}

// err returns the read's error once the rows have ended.
func (p *prefetch[T]) err() error {
	if !p.ended {
		return nil
	}
	return p.readErr
}

// close ends the read (when the consumer stops early) and waits for it.
func (p *prefetch[T]) close() {
	close(p.stop)
	p.done.Wait()
}
