package holdingsapi

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// countingStore serves n numbered rows, then err.
type countingStore struct {
	kb.SnapshotStore
	n   int
	err error
}

func (s countingStore) Holdings(ctx context.Context, _ string, offset, count int, fn func(*kb.Holding) error) error {
	var h kb.Holding
	for i := 0; i < s.n; i++ {
		h.Values[0] = strconv.Itoa(i)
		if err := fn(&h); err != nil {
			return err
		}
	}
	return s.err
}

func TestPipeHoldings(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name     string
		n        int
		storeErr error
		stopAt   int // fn fails at this row; -1 never
		wantRows int
		wantErr  error
	}{
		{"empty", 0, nil, -1, 0, nil},
		{"one batch and a bit", pipeBatch + 3, nil, -1, pipeBatch + 3, nil},
		{"many batches", 10*pipeBatch + 1, nil, -1, 10*pipeBatch + 1, nil},
		{"store error after rows", 2 * pipeBatch, boom, -1, 2 * pipeBatch, boom},
		{"store error first", 0, boom, -1, 0, boom},
		{"writer error stops the reading", 10 * pipeBatch, nil, 300, 300, boom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := 0
			err := pipeHoldings(context.Background(), countingStore{n: tc.n, err: tc.storeErr}, "c", 1, 0, func(h *kb.Holding) error {
				if got == tc.stopAt {
					return boom
				}
				if h.Values[0] != strconv.Itoa(got) {
					t.Fatalf("row %d is %q: out of order", got, h.Values[0])
				}
				got++
				return nil
			})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
			if got != tc.wantRows {
				t.Errorf("%d rows, want %d", got, tc.wantRows)
			}
		})
	}
}
