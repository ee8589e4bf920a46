package alpha

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sync"
)

// An Ordering places n names in a locale's collation order and in the
// first level of its alpha menu.
type Ordering struct {
	// Rank is the position of name i in collation order.
	Rank []uint32
	// Path is name i's place in the alpha menus.
	Path []Path
}

// Order orders n names, name(i) being the i-th, by their collation keys
// (Key), names with equal keys by tie (nil: by i). name may be called
// from several goroutines at once.
//
// It sorts by the first 8 bytes of each key, then each run of names that
// share them by their whole keys: only a run's keys are in memory at a
// time, not a key per name.
func (l *Locale) Order(n int, name func(i int) string, tie func(a, b uint32) int) Ordering {
	if tie == nil {
		tie = cmp.Compare[uint32]
	}
	o := Ordering{Rank: make([]uint32, n), Path: make([]Path, n)}
	prefix := make([]uint64, n)
	order := make([]uint32, n)
	// The keys and paths, one range of names per processor (name is
	// called from several goroutines at once).
	parts := max(1, min(runtime.GOMAXPROCS(0), n/10000))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			for i := n * p / parts; i < n*(p+1)/parts; i++ {
				s := name(i)
				prefix[i] = keyPrefix(l.Key(s))
				o.Path[i] = l.Path(s)
				order[i] = uint32(i)
			}
		})
	}
	wg.Wait()
	slices.SortFunc(order, func(a, b uint32) int {
		return cmp.Or(cmp.Compare(prefix[a], prefix[b]), tie(a, b))
	})
	type keyed struct {
		key []byte
		i   uint32
	}
	var run []keyed
	for lo := 0; lo < n; {
		hi := lo + 1
		for hi < n && prefix[order[hi]] == prefix[order[lo]] {
			hi++
		}
		if hi-lo > 1 {
			run = run[:0]
			for _, i := range order[lo:hi] {
				run = append(run, keyed{l.Key(name(int(i))), i})
			}
			slices.SortFunc(run, func(a, b keyed) int {
				return cmp.Or(bytes.Compare(a.key, b.key), tie(a.i, b.i))
			})
			for k, r := range run {
				order[lo+k] = r.i
			}
		}
		lo = hi
	}
	for pos, i := range order {
		o.Rank[i] = uint32(pos)
	}
	return o
}

// keyPrefix returns the first 8 bytes of a collation key as a number
// whose order is the keys' order (a shorter key padded with zeros): equal
// prefixes leave the order to the whole keys.
func keyPrefix(key []byte) uint64 {
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}
