package scholarapi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// fakeWrite writes one file of size bytes for every customer, counts its
// calls and, while block is open, waits on it.
type fakeWrite struct {
	size  int
	calls atomic.Int64
	block chan struct{}
	fail  error
}

func (w *fakeWrite) write(ctx context.Context, custID, dir string) ([]string, error) {
	w.calls.Add(1)
	if w.block != nil {
		<-w.block
	}
	if w.fail != nil {
		return nil, w.fail
	}
	if err := os.WriteFile(filepath.Join(dir, "holdings-1.xml"), make([]byte, w.size), 0o600); err != nil {
		return nil, err
	}
	return []string{"holdings-1.xml"}, nil
}

func exists(dir string) bool {
	_, err := os.Stat(dir)
	return err == nil
}

func TestFilesWritesOncePerVersion(t *testing.T) {
	f := NewFiles(t.TempDir(), 1000, nil)
	defer f.Close()
	w := &fakeWrite{size: 10, block: make(chan struct{})}
	ctx := t.Context()
	var wg sync.WaitGroup
	sets := make([]*fileSet, 8)
	for i := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := f.set(ctx, "c1", "1.1", w.write)
			if err != nil {
				t.Error(err)
			}
			sets[i] = s
		}()
	}
	close(w.block) // the one writer finishes whenever the others arrive
	wg.Wait()
	if n := w.calls.Load(); n != 1 {
		t.Errorf("written %d times for 8 requests of one version", n)
	}
	for _, s := range sets {
		if s != sets[0] {
			t.Fatal("the requests got different sets")
		}
	}
	old := sets[0].dir
	s, err := f.set(ctx, "c1", "1.2", w.write)
	if err != nil || s.dir == old || w.calls.Load() != 2 {
		t.Fatalf("a new version: %+v, %v, %d writes", s, err, w.calls.Load())
	}
	if exists(old) {
		t.Errorf("the old version's files are still there")
	}
}

func TestFilesBudget(t *testing.T) {
	f := NewFiles(t.TempDir(), 250, nil)
	defer f.Close()
	w := &fakeWrite{size: 100}
	ctx := t.Context()
	get := func(cust string) *fileSet {
		t.Helper()
		s, err := f.set(ctx, cust, "1.1", w.write)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := get("a"), get("b")
	get("a") // a is the most recently used now
	c := get("c")
	if exists(b.dir) || !exists(a.dir) || !exists(c.dir) {
		t.Errorf("over the budget, b (least recently used) should go: a %v, b %v, c %v", exists(a.dir), exists(b.dir), exists(c.dir))
	}
	if n := w.calls.Load(); n != 3 {
		t.Errorf("%d writes, want 3", n)
	}
	get("b") // written again
	if n := w.calls.Load(); n != 4 {
		t.Errorf("%d writes, want 4", n)
	}
	// A set larger than the budget alone is kept (the others go).
	w.size = 1000
	big := get("big")
	if !exists(big.dir) || exists(a.dir) || exists(c.dir) {
		t.Errorf("a set over the budget: kept %v; a %v, c %v", exists(big.dir), exists(a.dir), exists(c.dir))
	}
}

func TestFilesFailureIsRetried(t *testing.T) {
	f := NewFiles(t.TempDir(), 0, nil)
	defer f.Close()
	boom := errors.New("store down")
	w := &fakeWrite{size: 10, fail: boom}
	if _, err := f.set(t.Context(), "c1", "1.1", w.write); !errors.Is(err, boom) {
		t.Fatalf("error %v, want the write's", err)
	}
	w.fail = nil
	if s, err := f.set(t.Context(), "c1", "1.1", w.write); err != nil || len(s.names) != 1 || w.calls.Load() != 2 {
		t.Fatalf("after a failure: %+v, %v, %d writes", s, err, w.calls.Load())
	}
	entries, err := os.ReadDir(f.root)
	if err != nil || len(entries) != 1 {
		t.Errorf("directories left: %v, %v", entries, err)
	}
}

func TestFilesCloseRemovesTemporaryDirectory(t *testing.T) {
	f := NewFiles("", 0, nil)
	w := &fakeWrite{size: 10}
	if _, err := f.set(t.Context(), "c1", "1.1", w.write); err != nil {
		t.Fatal(err)
	}
	root := f.root
	if !exists(root) {
		t.Fatal("no directory")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if exists(root) {
		t.Errorf("%s left after Close", root)
	}
}

// countStore hands n holdings, title ids 1 to n, reusing one holding as
// the stores do, and counts what it handed.
type countStore struct {
	n      int
	handed int
}

func (s *countStore) CollectionSerials(ctx context.Context, custID string, fn func(*kb.SerialHolding) error) error {
	var h kb.SerialHolding
	for i := 1; i <= s.n; i++ {
		h.Title.ID, h.Title.Name = int64(i), "T"+strconv.Itoa(i)
		s.handed++
		if err := fn(&h); err != nil {
			return err
		}
	}
	return nil
}

func TestPipe(t *testing.T) {
	st := &countStore{n: 3*pipeBatch + 7}
	var got []int64
	if err := pipe(t.Context(), st, "c1", func(h *kb.SerialHolding) error {
		if h.Title.Name != "T"+strconv.FormatInt(h.Title.ID, 10) {
			t.Errorf("holding %d named %s", h.Title.ID, h.Title.Name)
		}
		got = append(got, h.Title.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != st.n || !slices.IsSorted(got) || got[0] != 1 {
		t.Errorf("%d holdings came, want %d in order", len(got), st.n)
	}

	// An error of add stops the stream (within the batches under way)
	// and comes back.
	boom := errors.New("disk full")
	st = &countStore{n: 100 * pipeBatch}
	calls := 0
	err := pipe(t.Context(), st, "c1", func(*kb.SerialHolding) error {
		calls++
		if calls == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || calls != 10 {
		t.Errorf("error %v after %d calls, want the writer's after 10", err, calls)
	}
	if st.handed > 10*pipeBatch {
		t.Errorf("the store handed %d holdings after the writer failed at the 10th", st.handed)
	}
}
