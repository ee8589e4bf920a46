package search

import (
	"fmt"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
)

// sizes estimates the bytes each part of the index holds (slices by their
// length, bitmaps by their serialized size, maps by their entries), for
// the benchmarks' memory report.
func (x *Index) sizes() map[string]uint64 {
	bms := func(l []*roaring.Bitmap) uint64 {
		n := uint64(0)
		for _, b := range l {
			if b != nil {
				n += b.GetSizeInBytes()
			}
		}
		return n
	}
	m := map[string]uint64{
		"ids":     uint64(len(x.ids)) * 8,
		"byID":    uint64(len(x.byID)) * 4,
		"idents":  uint64(len(x.idents.text) + 4*len(x.idents.heads) + 4*len(x.idents.ords)),
		"pubs":    bms(x.pubPosts),
		"filters": x.custom.GetSizeInBytes() + x.peer.GetSizeInBytes(),
		// Publication search's facets: each title's subjects and packages,
		// and a bitmap per subject.
		"facets.subjects": bms(x.subjPosts) + uint64(len(x.subjOff)+len(x.subjOf))*4,
		"facets.packages": uint64(len(x.pkgOff)+len(x.pkgOf)) * 4,
	}
	for _, b := range x.byType {
		m["filters"] += b.GetSizeInBytes()
	}
	for _, b := range x.packages {
		m["packages"] += b.GetSizeInBytes()
	}
	for name, f := range map[string]*field{"name": x.name, "publisher": x.publisher, "subject": x.subject} {
		m[name+".tokens"] = uint64(len(f.enc)) + uint64(len(f.tokStart)+len(f.listOf)+len(f.rankTerm))*4
		m[name+".postings"] = bms(f.postings) + uint64(len(f.rare)+len(f.rareStart))*4
		m[name+".lists"] = uint64(len(f.listStart)+len(f.listAt)+len(f.termListStart)+len(f.termListAt)+len(f.termListTF)+len(f.listLen)) * 4
		for _, t := range f.terms {
			m[name+".terms"] += uint64(len(t)) + 16
		}
		for _, l := range f.trigrams {
			m[name+".trigrams"] += uint64(len(l))*4 + 40
		}
	}
	return m
}

// sizeReport formats sizes as bytes per title, largest first.
func (x *Index) sizeReport() string {
	m := x.sizes()
	keys := make([]string, 0, len(m))
	total := uint64(0)
	for k, v := range m {
		keys = append(keys, k)
		total += v
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	n := float64(max(1, x.Len()))
	var b strings.Builder
	fmt.Fprintf(&b, "estimated %.1f B/title:", float64(total)/n)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %.1f", k, float64(m[k])/n)
	}
	return b.String()
}
