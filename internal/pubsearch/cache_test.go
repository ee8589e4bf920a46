package pubsearch

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// countingStore is a PublicationStore whose collections are n titles a
// customer, at a version the test sets, counting the builds.
type countingStore struct {
	kb.PublicationStore // only the methods below are called
	mu                  sync.Mutex
	version             map[string]string
	size                map[string]int
	fail                atomic.Bool
	builds              atomic.Int32
	started             chan struct{} // receives at each build start when non-nil
	proceeds            chan struct{} // a build waits on it when non-nil
}

func (s *countingStore) CollectionVersion(_ context.Context, custID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version[custID], nil
}

func (s *countingStore) CollectionHits(_ context.Context, custID string, fn func(kb.PubHit)) error {
	s.builds.Add(1)
	if s.started != nil {
		s.started <- struct{}{}
	}
	if s.proceeds != nil {
		<-s.proceeds
	}
	if s.fail.Load() {
		return errors.New("store down")
	}
	s.mu.Lock()
	n := s.size[custID]
	s.mu.Unlock()
	for i := range n {
		fn(kb.PubHit{ID: int64(i + 1), Name: "T", PackageIDs: []int64{1}})
	}
	return nil
}

func TestIndexRebuildsOnNewVersionOnly(t *testing.T) {
	ctx := context.Background()
	st := &countingStore{version: map[string]string{"a": "1"}, size: map[string]int{"a": 10}}
	x := NewIndex(100, true)
	for range 3 {
		if c, err := x.collection(ctx, st, "a"); err != nil || c.size() != 10 {
			t.Fatalf("collection: %v, %v", c, err)
		}
	}
	if n := st.builds.Load(); n != 1 {
		t.Errorf("%d builds for one version, want 1", n)
	}
	st.mu.Lock()
	st.version["a"], st.size["a"] = "2", 12
	st.mu.Unlock()
	if c, _ := x.collection(ctx, st, "a"); c.size() != 12 || st.builds.Load() != 2 {
		t.Errorf("after a new version: %d titles, %d builds; want 12, 2", c.size(), st.builds.Load())
	}
}

func TestIndexEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	st := &countingStore{version: map[string]string{}, size: map[string]int{"a": 40, "b": 40, "c": 40, "huge": 500}}
	x := NewIndex(100, true)
	for _, c := range []string{"a", "b", "a", "c"} { // b is the least recently used when c arrives
		if _, err := x.collection(ctx, st, c); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := x.entries["b"]; ok {
		t.Error("b kept: want it evicted as the least recently used")
	}
	for _, c := range []string{"a", "c"} {
		if _, ok := x.entries[c]; !ok {
			t.Errorf("%s evicted", c)
		}
	}
	// A collection over the whole budget is served but not kept.
	if c, err := x.collection(ctx, st, "huge"); err != nil || c.size() != 500 {
		t.Fatalf("huge: %v", err)
	}
	if _, ok := x.entries["huge"]; ok {
		t.Error("a collection over the budget was kept")
	}
}

func TestIndexSharesOneBuildAndForgetsErrors(t *testing.T) {
	ctx := context.Background()
	st := &countingStore{version: map[string]string{"a": "1"}, size: map[string]int{"a": 5},
		started: make(chan struct{}, 10), proceeds: make(chan struct{})}
	x := NewIndex(0, true)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if c, err := x.collection(ctx, st, "a"); err != nil || c.size() != 5 {
				t.Errorf("collection: %v, %v", c, err)
			}
		})
	}
	<-st.started // one build is under way; the others wait on it or reuse it
	close(st.proceeds)
	wg.Wait()
	if n := st.builds.Load(); n != 1 {
		t.Errorf("%d builds for 4 concurrent searches, want 1", n)
	}

	// A failed build is not kept: the next search builds again.
	st.started = nil
	st.fail.Store(true)
	st.mu.Lock()
	st.version["a"] = "2"
	st.mu.Unlock()
	if _, err := x.collection(ctx, st, "a"); err == nil {
		t.Fatal("no error from a failed build")
	}
	st.fail.Store(false)
	if c, err := x.collection(ctx, st, "a"); err != nil || c.size() != 5 || st.builds.Load() != 3 {
		t.Errorf("after the failure: %v, %v, %d builds; want a third build", c, err, st.builds.Load())
	}
}

// TestIndexServesPreviousWhileRebuilding: an Index that is not consistent
// answers from the previous collection while the new version builds in
// the background, then from the new one; the first build of a customer is
// waited for.
func TestIndexServesPreviousWhileRebuilding(t *testing.T) {
	ctx := context.Background()
	st := &countingStore{version: map[string]string{"a": "1"}, size: map[string]int{"a": 3}}
	x := NewIndex(0, false)
	if c, err := x.collection(ctx, st, "a"); err != nil || c.size() != 3 {
		t.Fatalf("first build: %v, %v", c, err)
	}
	st.mu.Lock()
	st.version["a"], st.size["a"] = "2", 4
	st.mu.Unlock()
	st.proceeds = make(chan struct{})
	for range 3 {
		if c, err := x.collection(ctx, st, "a"); err != nil || c.size() != 3 || c.version != "1" {
			t.Fatalf("during the rebuild: %v, %v; want the previous collection", c, err)
		}
	}
	close(st.proceeds)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := x.collection(ctx, st, "a")
		if err != nil {
			t.Fatal(err)
		}
		if c.version == "2" {
			if c.size() != 4 {
				t.Errorf("new collection: %d titles, want 4", c.size())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new version never replaced the previous one")
		}
		time.Sleep(time.Millisecond)
	}
	if n := st.builds.Load(); n != 2 {
		t.Errorf("%d builds, want 2", n)
	}
}
