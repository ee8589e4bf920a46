package answercache

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

func TestGetPut(t *testing.T) {
	type op struct {
		put          bool
		key, version string
		body         string
		want         string // Get: the body expected, "" for a miss
	}
	cases := []struct {
		name string
		ops  []op
		want Stats // counters only
	}{
		{"miss then hit", []op{
			{key: "a", version: "1"},
			{put: true, key: "a", version: "1", body: "A1"},
			{key: "a", version: "1", want: "A1"},
		}, Stats{Hits: 1, Misses: 1}},
		{"another version is stale and dropped", []op{
			{put: true, key: "a", version: "1", body: "A1"},
			{key: "a", version: "2"},
			{key: "a", version: "1"}, // dropped by the stale read
		}, Stats{Misses: 1, Stale: 1}},
		{"a put replaces the key's answer", []op{
			{put: true, key: "a", version: "1", body: "A1"},
			{put: true, key: "a", version: "2", body: "A2"},
			{key: "a", version: "2", want: "A2"},
			{key: "a", version: "1"},
		}, Stats{Hits: 1, Stale: 1}},
		{"keys are apart", []op{
			{put: true, key: "c1/t/1", version: "1", body: "one"},
			{key: "c2/t/1", version: "1"},
			{key: "c1/t/1", version: "1", want: "one"},
		}, Stats{Hits: 1, Misses: 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(1 << 20)
			for i, o := range tc.ops {
				if o.put {
					c.Put(o.key, o.version, []byte(o.body))
					continue
				}
				got, ok := c.Get(o.key, o.version)
				if ok != (o.want != "") || string(got) != o.want {
					t.Errorf("op %d: Get(%q, %q) = %q, %v; want %q", i, o.key, o.version, got, ok, o.want)
				}
			}
			st := c.Stats()
			st.Entries, st.Bytes, st.Budget = 0, 0, 0
			if st != tc.want {
				t.Errorf("stats %+v, want %+v", st, tc.want)
			}
		})
	}
}

// TestBudget fills a cache beyond its budget: the bytes kept never exceed
// it, the least recently used answers go first, and an answer larger than
// the budget's MaxShare-th is not kept.
func TestBudget(t *testing.T) {
	body := bytes.Repeat([]byte("x"), 1000)
	size := int64(len("k00") + len("v") + len(body) + entryOverhead)
	const room = 2 * MaxShare
	c := New(room * size)
	for i := range room {
		c.Put(fmt.Sprintf("k%02d", i), "v", body)
	}
	if _, ok := c.Get("k00", "v"); !ok { // k00 is now the most recently used
		t.Fatal("k00 dropped before the budget was reached")
	}
	for i := room; i < room+5; i++ {
		c.Put(fmt.Sprintf("k%02d", i), "v", body)
		if st := c.Stats(); st.Bytes > st.Budget {
			t.Fatalf("after %d puts: %d bytes kept, budget %d", i+1, st.Bytes, st.Budget)
		}
	}
	st := c.Stats()
	if st.Entries != room || st.Evictions != 5 {
		t.Errorf("entries %d, evictions %d; want %d and 5", st.Entries, st.Evictions, room)
	}
	// k01…k05 were the least recently used.
	for i, kept := range map[int]bool{0: true, 1: false, 5: false, 6: true, room + 4: true} {
		if _, ok := c.Get(fmt.Sprintf("k%02d", i), "v"); ok != kept {
			t.Errorf("k%02d kept: %v, want %v", i, ok, kept)
		}
	}

	big := New(MaxShare * 1000)
	big.Put("huge", "v", bytes.Repeat([]byte("x"), 1000)) // over the share with its key and overhead
	if _, ok := big.Get("huge", "v"); ok {
		t.Error("an answer larger than the budget's share was kept")
	}
}

func TestNilCacheKeepsNothing(t *testing.T) {
	c := New(0)
	if c != nil {
		t.Fatal("New(0) is not nil")
	}
	c.Put("a", "1", []byte("A"))
	if _, ok := c.Get("a", "1"); ok {
		t.Error("a nil cache answered")
	}
	if st := c.Stats(); st != (Stats{}) {
		t.Errorf("stats %+v", st)
	}
}

// TestConcurrent runs gets and puts from several goroutines (for the race
// detector) and checks the budget holds at the end.
func TestConcurrent(t *testing.T) {
	c := New(50_000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				key := fmt.Sprintf("k%d", (i*7+g)%300)
				version := fmt.Sprint(i % 3)
				if _, ok := c.Get(key, version); !ok {
					c.Put(key, version, bytes.Repeat([]byte{'x'}, 100+i%200))
				}
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes > st.Budget || st.Hits+st.Misses+st.Stale != 8000 {
		t.Errorf("stats %+v: over budget or requests miscounted", st)
	}
}
