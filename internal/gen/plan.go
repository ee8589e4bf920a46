package gen

import (
	"math"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// meanPackageSize is the mean number of titles of a generated package. It
// does not depend on the pool size: a knowledge base of P packages holds
// about P × meanPackageSize resources.
const meanPackageSize = 500

// segment is a run of positions in a permutation of one family's titles.
type segment struct {
	fam   family
	perm  perm
	start int
	size  int
}

// pkgPlan is everything about a package but its rows.
type pkgPlan struct {
	vendor  int
	content kb.ContentType
	ptype   kb.PackageType
	agg     bool
	nseg    int
	segs    [2]segment
}

func (p *pkgPlan) size() int { return p.segs[0].size + p.segs[1].size }

// plan lays out the packages. Its size is proportional to the number of
// packages, never to the number of titles.
type plan struct {
	pkgs      []pkgPlan
	vendors   int
	resources int
}

// Content types of the first aggregator packages, so that every content
// type occurs, and the weights of the later ones.
var (
	aggContents = [...]kb.ContentType{
		kb.ContentAggregatedFullText, kb.ContentAbstractAndIndex, kb.ContentEJournal, kb.ContentEBook,
		kb.ContentPrint, kb.ContentUnknown, kb.ContentOnlineReference,
	}
	aggContentWeights = []int{35, 15, 20, 20, 4, 3, 3}
	// tileContents are the content types of the packages that tile each
	// family, with their weights.
	tileContents = [numFamilies][]kb.ContentType{
		{kb.ContentEJournal, kb.ContentPrint, kb.ContentUnknown},
		{kb.ContentEBook, kb.ContentPrint, kb.ContentUnknown},
		{kb.ContentOnlineReference, kb.ContentUnknown},
	}
	tileContentWeights = [numFamilies][]int{{85, 8, 7}, {90, 5, 5}, {50, 50}}
	packageTypes       = [...]kb.PackageType{kb.PackageSelectable, kb.PackageComplete, kb.PackageVariable}
)

// contentMix says which families an aggregator of a content type draws
// from, and the share (in percent) of the first.
func contentMix(c kb.ContentType) (a, b family, share int) {
	switch c {
	case kb.ContentEBook:
		return famMono, famMono, 100
	case kb.ContentAggregatedFullText:
		return famSerial, famMono, 70
	case kb.ContentPrint:
		return famSerial, famMono, 50
	case kb.ContentUnknown:
		return famMono, famOther, 50
	case kb.ContentOnlineReference:
		return famOther, famMono, 60
	}
	return famSerial, famSerial, 100 // EJournal, AbstractAndIndex
}

// packageSize draws a log-normal-ish package size: median about 300, a
// few of about 10 titles, a few of several thousand.
func packageSize(r *rng) float64 {
	z := (r.float() + r.float() + r.float() + r.float() - 2) * math.Sqrt(3)
	return math.Min(math.Max(math.Exp(5.7+z), 10), 20000)
}

// newPlan lays out o.Packages packages over the pool of g. The first
// packages tile each family's permutation, so that every title is in at
// least one package; the rest (aggregators) take blocks of a second
// permutation, so that titles are shared between packages.
func newPlan(g *generator, o Options) *plan {
	P := o.Packages
	pl := &plan{pkgs: make([]pkgPlan, P), vendors: min(o.Vendors, P)}
	var tilePerm, aggPerm [numFamilies]perm
	nonEmpty := 0
	for f := range numFamilies {
		tilePerm[f] = newPerm(g.members[f], mix(g.seed^(0x7100+uint64(f))))
		aggPerm[f] = newPerm(g.members[f], mix(g.seed^(0xa900+uint64(f))))
		if g.members[f] > 0 {
			nonEmpty++
		}
	}

	// How many packages tile each family.
	total := min((g.n+meanPackageSize-1)/meanPackageSize, P/2)
	total = min(max(total, nonEmpty), P)
	var tiles [numFamilies]int
	sum := 0
	for f := range numFamilies {
		if m := g.members[f]; m > 0 {
			tiles[f] = min(max(1, int(math.Round(float64(total)*float64(m)/float64(g.n)))), m)
			sum += tiles[f]
		}
	}
	for sum > P {
		big := famSerial
		for f := range numFamilies {
			if tiles[f] > tiles[big] {
				big = f
			}
		}
		tiles[big]--
		sum--
	}

	// Tiling packages: sizes proportional to drawn weights, each at least 1,
	// adding up to the family's size.
	p := 0
	for f := range numFamilies {
		n, t := g.members[f], tiles[f]
		if t == 0 {
			continue
		}
		weights := make([]float64, t)
		var wsum float64
		for j := range weights {
			r := newRNG(g.seed, 0x5a00000000+uint64(p+j))
			weights[j] = packageSize(&r)
			wsum += weights[j]
		}
		var cum float64
		lo := 0
		for j := range weights {
			cum += weights[j]
			hi := int(float64(n-t)*cum/wsum) + j + 1
			if j == t-1 {
				hi = n
			}
			r := newRNG(g.seed, 0x9c00000000+uint64(p))
			pp := &pl.pkgs[p]
			pp.content = tileContents[f][r.pick(tileContentWeights[f])]
			pp.segs[0] = segment{fam: f, perm: tilePerm[f], start: lo, size: hi - lo}
			pp.nseg = 1
			lo = hi
			p++
		}
	}

	// Aggregators: the last len(o.LargePackages) of them take the sizes
	// asked for; the sizes of the others are drawn, then scaled so that the
	// knowledge base holds about o.Resources resources when that is set.
	type aggDraw struct {
		r    rng
		size int
	}
	draws := make([]aggDraw, P-p)
	firstLarge := P - min(len(o.LargePackages), P-p)
	drawn := 0
	for a, q := 0, p; q < P; a, q = a+1, q+1 {
		r := newRNG(g.seed, 0x9c00000000+uint64(q))
		pp := &pl.pkgs[q]
		pp.agg = true
		if q >= firstLarge {
			pp.content = kb.ContentAggregatedFullText
			draws[a] = aggDraw{r: r, size: o.LargePackages[q-firstLarge]}
			continue
		}
		if a < len(aggContents) {
			pp.content = aggContents[a]
			r.next()
		} else {
			pp.content = aggContents[r.pick(aggContentWeights)]
		}
		draws[a] = aggDraw{r: r, size: int(packageSize(&r))}
		drawn += draws[a].size
	}
	if o.Resources > 0 && drawn > 0 {
		want := o.Resources - g.n
		for _, n := range o.LargePackages {
			want -= n
		}
		scale := max(float64(want), 0) / float64(drawn)
		for a := range draws[:firstLarge-p] {
			draws[a].size = max(1, int(math.Round(float64(draws[a].size)*scale)))
		}
	}
	for a := 0; p < P; a, p = a+1, p+1 {
		r, size := draws[a].r, draws[a].size
		pp := &pl.pkgs[p]
		fa, fb, share := contentMix(pp.content)
		sa := size * share / 100
		sb := size - sa
		if p >= firstLarge && fa != fb { // a large package takes its size whatever the families' sizes
			if over := sa - g.members[fa]; over > 0 {
				sa, sb = sa-over, sb+over
			}
			if over := sb - g.members[fb]; over > 0 {
				sa, sb = min(sa+over, g.members[fa]), sb-over
			}
		}
		for _, part := range [2]struct {
			f family
			n int
		}{{fa, sa}, {fb, sb}} {
			m := g.members[part.f]
			if part.n == 0 || m == 0 {
				continue
			}
			if pp.nseg == 1 && pp.segs[0].fam == part.f {
				pp.segs[0].size = min(pp.segs[0].size+part.n, m)
				continue
			}
			pp.segs[pp.nseg] = segment{fam: part.f, perm: aggPerm[part.f], start: r.intn(m), size: min(part.n, m)}
			pp.nseg++
		}
		if pp.nseg == 0 { // the families it wants are empty in a tiny pool
			f := famSerial
			for g.members[f] == 0 {
				f++
			}
			pp.segs[0] = segment{fam: f, perm: aggPerm[f], start: r.intn(g.members[f]), size: min(size, g.members[f])}
			pp.nseg = 1
		}
	}

	// Package types and vendors. The packages a bijection of [0,P) maps
	// below the number of vendors give each vendor one package; the others
	// go mostly to the first vendors, so that a few vendors are large.
	vp := newPerm(P, mix(g.seed^0x7e4d))
	for p := range pl.pkgs {
		pp := &pl.pkgs[p]
		r := newRNG(g.seed, 0x7900000000+uint64(p))
		if p < len(packageTypes) {
			pp.ptype = packageTypes[p]
		} else {
			pp.ptype = packageTypes[r.pick([]int{60, 25, 15})]
		}
		if v := vp.at(p); v < pl.vendors {
			pp.vendor = v
		} else {
			pp.vendor = int(float64(pl.vendors) * sq(r.float()))
		}
		pl.resources += pp.size()
	}
	return pl
}

// Name spaces: vendor names are head × tail × form, package names
// topic × qualifier; a multiplier coprime with the space scrambles the
// order, so that neighbouring numbers get unrelated names.
const (
	vendorSpace  = len(vendorHeads) * len(vendorTails) * len(vendorForms)
	packageSpace = len(areas) * 10 * len(packageQualifiers)
	nameScramble = 7919 // prime, coprime with both spaces
)

// vendorName returns the name of vendor v, unique for every v.
func vendorName(seed uint64, v int) string {
	x := (v%vendorSpace*nameScramble + int(seed%uint64(vendorSpace))) % vendorSpace
	var b strings.Builder
	b.WriteString(vendorHeads[x%len(vendorHeads)])
	x /= len(vendorHeads)
	b.WriteString(vendorTails[x%len(vendorTails)])
	x /= len(vendorTails)
	b.WriteByte(' ')
	b.WriteString(vendorForms[x])
	if round := v / vendorSpace; round > 0 {
		b.WriteByte(' ')
		if round <= len(vendorRegions) {
			b.WriteString(vendorRegions[round-1])
		} else {
			b.WriteString(strconv.Itoa(round + 1))
		}
	}
	return b.String()
}

// contentWords name what a package holds.
func contentWord(c kb.ContentType) string {
	switch c {
	case kb.ContentAggregatedFullText:
		return "Full Text"
	case kb.ContentAbstractAndIndex:
		return "Abstracts"
	case kb.ContentEBook:
		return "eBooks"
	case kb.ContentEJournal:
		return "Journals"
	case kb.ContentPrint:
		return "Print Titles"
	case kb.ContentOnlineReference:
		return "Online Reference"
	}
	return "Resources"
}

var romans = [...]string{"II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"}

// packageName returns the name of package p, unique for every p whatever
// its content type.
func packageName(seed uint64, p int, c kb.ContentType) string {
	x := (p%packageSpace*nameScramble + int(seed%uint64(packageSpace))) % packageSpace
	ar := &areas[x%len(areas)]
	x /= len(areas)
	var b strings.Builder
	b.WriteString(ar.topics[x%10])
	x /= 10
	b.WriteByte(' ')
	b.WriteString(contentWord(c))
	b.WriteByte(' ')
	b.WriteString(packageQualifiers[x])
	if round := p / packageSpace; round > 0 {
		b.WriteByte(' ')
		if round <= len(romans) {
			b.WriteString(romans[round-1])
		} else {
			b.WriteString(strconv.Itoa(round + 1))
		}
	}
	return b.String()
}
