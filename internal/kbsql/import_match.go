package kbsql

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/kbserver/kbserver/internal/kb"
)

// MatchKeys returns what an import batch looks its rows' titles up by: the
// valid identifiers of every row and the match hashes of the rows without
// a valid identifier (a row with one matches by identifier only).
func MatchKeys(ps []ImportRow) (norms []string, hashes []int64) {
	for _, p := range ps {
		for _, id := range p.Idents {
			if id.Valid {
				norms = append(norms, id.Norm)
			}
		}
		if !p.HasValid {
			hashes = append(hashes, p.Match)
		}
	}
	return norms, hashes
}

// MatchTitle returns the managed title of an import row given the titles
// found by identifier and by match hash: the title of its first valid
// identifier that has one, else, for a row without a valid identifier,
// the title of its match hash.
func MatchTitle[T any](p *ImportRow, byNorm map[string]T, byHash map[int64]T) (T, bool) {
	for _, id := range p.Idents {
		if id.Valid {
			if t, ok := byNorm[id.Norm]; ok {
				return t, true
			}
		}
	}
	if !p.HasValid {
		t, ok := byHash[p.Match]
		return t, ok
	}
	var zero T
	return zero, false
}

// AddedIdents returns the valid identifiers of a row matched to title t
// that no title has yet, and records them in byNorm as t's, so that later
// rows of the batch match t by them too.
func AddedIdents[T any](p *ImportRow, t T, byNorm map[string]T) []Ident {
	var added []Ident
	for _, id := range p.Idents {
		if _, known := byNorm[id.Norm]; id.Valid && !known {
			byNorm[id.Norm] = t
			added = append(added, id)
		}
	}
	return added
}

// NoteNewTitle records title t, created from row p, under the row's valid
// identifiers and its match hash, so that later rows of the batch match it.
func NoteNewTitle[T any](p *ImportRow, t T, byNorm map[string]T, byHash map[int64]T) {
	for _, id := range p.Idents {
		if id.Valid {
			byNorm[id.Norm] = t
		}
	}
	byHash[p.Match] = t
}

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
