package gen

import (
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// family groups the publication types whose titles are packaged together:
// serials (journals and the like), monographs (books and the like) and
// other online resources (databases, websites, streaming media).
type family uint8

const (
	famSerial family = iota
	famMono
	famOther
	numFamilies
)

// period is the length of the repeating pattern that assigns title indices
// to families: 13 serial, 11 monograph and 1 other residue, shuffled by the
// seed. Assigning by residue keeps a title's family a pure function of its
// index while letting packages draw from one family at a time.
const period = 25

var familySizes = [numFamilies]int{13, 11, 1}

// The publication types of each family with their relative weights. The
// first members of a family take each type in turn, so that every type
// occurs even in a small knowledge base.
var (
	familyTypes = [numFamilies][]kb.ResourceType{
		{kb.ResourceJournal, kb.ResourceNewsletter, kb.ResourceReport, kb.ResourceProceedings, kb.ResourceNewspaper, kb.ResourceBookSeries},
		{kb.ResourceBook, kb.ResourceThesisDissertation, kb.ResourceAudioBook, kb.ResourceUnspecified},
		{kb.ResourceDatabase, kb.ResourceWebsite, kb.ResourceStreamingAudio, kb.ResourceStreamingVideo},
	}
	familyWeights = [numFamilies][]int{
		{800, 40, 40, 50, 30, 40},
		{880, 40, 40, 40},
		{25, 25, 20, 30},
	}
)

// Span indices beyond the KBART fields, for the other strings of a row.
const (
	spanDesc kbart.Field = kb.KBARTFieldCount + iota
	spanContrib0
	numSpans = spanContrib0 + maxContributors
)

const maxContributors = 3

// generator produces rows. Its scratch buffers make it unsafe for
// concurrent use; the produced rows share nothing with later ones.
type generator struct {
	seed    uint64
	n       int
	famOf   [period]family
	rankOf  [period]int
	famRes  [numFamilies][]int // residues of each family, ascending
	members [numFamilies]int   // number of titles of each family in [0,n)
	issn    perm
	isbn    perm

	buf     []byte
	spans   [numSpans][2]int32
	subj    []kb.Subject
	contrib []kb.Contributor
}

func newGenerator(seed int64, n int) *generator {
	g := &generator{seed: mix(uint64(seed)), n: n}
	var res [period]int
	for i := range res {
		res[i] = i
	}
	r := newRNG(g.seed, 0xfa)
	for i := period - 1; i > 0; i-- {
		j := r.intn(i + 1)
		res[i], res[j] = res[j], res[i]
	}
	f := 0
	for fam := range numFamilies {
		g.famRes[fam] = make([]int, 0, familySizes[fam])
		for range familySizes[fam] {
			g.famOf[res[f]] = fam
			g.famRes[fam] = append(g.famRes[fam], res[f])
			f++
		}
		sortInts(g.famRes[fam])
		for rank, x := range g.famRes[fam] {
			g.rankOf[x] = rank
		}
		full, rem := n/period, n%period
		g.members[fam] = full * len(g.famRes[fam])
		for _, x := range g.famRes[fam] {
			if x < rem {
				g.members[fam]++
			}
		}
	}
	g.issn = newPerm(issnSpace, mix(g.seed^0x155))
	g.isbn = newPerm(isbnSpace, mix(g.seed^0x158))
	return g
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// member returns the family of title i and its rank k among the titles of
// that family.
func (g *generator) member(i int) (family, int) {
	fam := g.famOf[i%period]
	return fam, (i/period)*len(g.famRes[fam]) + g.rankOf[i%period]
}

// index returns the title index of member k of a family.
func (g *generator) index(fam family, k int) int {
	res := g.famRes[fam]
	return (k/len(res))*period + res[k%len(res)]
}

// resCtx is what a row depends on besides its title: the package it is in.
type resCtx struct {
	pkg     uint64 // package key, for resource-level choices
	agg     bool   // an aggregator package (later coverage, more embargoes)
	content kb.ContentType
	line    int
}

func (g *generator) begin(span kbart.Field) { g.spans[span][0] = int32(len(g.buf)) }
func (g *generator) end(span kbart.Field)   { g.spans[span][1] = int32(len(g.buf)) }

func (g *generator) str(s string) { g.buf = append(g.buf, s...) }

func (g *generator) num(n int) { g.buf = strconv.AppendInt(g.buf, int64(n), 10) }

func (g *generator) field(span kbart.Field, s string) {
	g.begin(span)
	g.str(s)
	g.end(span)
}

// date appends yyyy-mm-dd.
func (g *generator) date(y, m, d int) {
	g.buf = append(g.buf, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
}

// lastDay returns the last day of month m (February as 28).
func lastDay(m int) int {
	switch m {
	case 2:
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// serialDates are a serial's coverage: begin year and month, first volume,
// end year (0: to the present).
type serialDates struct {
	founded, perYear     int
	beginY, beginM, endY int
}

// row builds the row of title i in a package. part is 0 for a title's only
// (or first) row and 2 for the second row of a title with two coverage
// ranges; twoRanges reports that a part-0 call produced the first of two.
func (g *generator) row(i int, rc resCtx, part int) (row kb.ImportRow, twoRanges bool) {
	g.buf = g.buf[:0]
	g.spans = [numSpans][2]int32{}
	fam, k := g.member(i)
	r := newRNG(g.seed, uint64(i))
	rr := newRNG(g.seed^rc.pkg, uint64(i))

	// Title-level choices. Their order is fixed for a title, so that every
	// package sees the same title.
	var pt kb.ResourceType
	if types := familyTypes[fam]; k < len(types) {
		pt = types[k]
		r.next()
	} else {
		pt = types[r.pick(familyWeights[fam])]
	}
	ar := &areas[r.intn(len(areas))]
	t1 := r.intn(len(ar.topics))
	t2 := (t1 + 1 + r.intn(len(ar.topics)-1)) % len(ar.topics)
	u := r.float()
	pub := int(float64(numPublishers) * u * u)
	hasIDs := fam != famOther && !r.permille(15)
	free := r.permille(70)

	row.PubType = pt
	row.Line = rc.line

	// Name.
	g.begin(kbart.PublicationTitle)
	edited := g.appendName(&r, pt, ar, t1, t2)
	g.end(kbart.PublicationTitle)

	// Identifiers.
	switch {
	case !hasIDs:
	case fam == famSerial:
		g.begin(kbart.PrintIdentifier)
		g.buf = appendISSN(g.buf, g.issn.at((2*k)%issnSpace))
		g.end(kbart.PrintIdentifier)
		g.begin(kbart.OnlineIdentifier)
		g.buf = appendISSN(g.buf, g.issn.at((2*k+1)%issnSpace))
		g.end(kbart.OnlineIdentifier)
	default:
		g.begin(kbart.PrintIdentifier)
		g.buf = appendISBN(g.buf, g.isbn.at((2*k)%isbnSpace))
		g.end(kbart.PrintIdentifier)
		g.begin(kbart.OnlineIdentifier)
		g.buf = appendISBN(g.buf, g.isbn.at((2*k+1)%isbnSpace))
		g.end(kbart.OnlineIdentifier)
	}

	// Publisher, title id and URL.
	head, tail := publisherHeads[pub%len(publisherHeads)], publisherTails[pub/len(publisherHeads)%len(publisherTails)]
	form := int(mix(uint64(pub)+0x5eed) % uint64(len(publisherForms)))
	g.begin(kbart.PublisherName)
	g.str(head)
	g.str(tail)
	g.buf = append(g.buf, ' ')
	g.str(publisherForms[form])
	g.end(kbart.PublisherName)
	g.begin(kbart.TitleID)
	g.buf = append(g.buf, 't')
	g.num(i + 1)
	g.end(kbart.TitleID)
	g.begin(kbart.TitleURL)
	g.str("https://")
	g.buf = append(g.buf, head[0]|0x20)
	g.str(head[1:])
	g.str(tail)
	g.buf = append(g.buf, '-')
	g.str(publisherSlugs[form])
	g.str(".example/")
	switch {
	case fam == famSerial && hasIDs:
		g.str("journals/")
		g.buf = append(g.buf, g.buf[g.spans[kbart.OnlineIdentifier][0]:g.spans[kbart.OnlineIdentifier][1]]...)
	case fam == famMono && hasIDs:
		g.str("books/")
		g.buf = append(g.buf, g.buf[g.spans[kbart.OnlineIdentifier][0]:g.spans[kbart.OnlineIdentifier][1]]...)
	default:
		g.str("content/")
		g.buf = append(g.buf, g.buf[g.spans[kbart.TitleID][0]:g.spans[kbart.TitleID][1]]...)
	}
	g.end(kbart.TitleURL)

	// Subjects: 1-3, mostly from the title's area.
	nsub := 1 + r.pick([]int{50, 35, 15})
	bisac := fam == famMono
	subj := g.alloc(nsub)
	for s := range nsub {
		sa := ar
		if s > 0 && r.permille(300) {
			sa = &areas[r.intn(len(areas))]
		}
		h := r.intn(3)
		if s == 0 {
			h = 0
		}
		if bisac {
			subj[s] = kb.Subject{Type: "BISAC", Name: sa.bisac[h]}
		} else {
			subj[s] = kb.Subject{Type: "TLI", Name: sa.tli[h]}
		}
	}
	row.Subjects = dedupSubjects(subj)

	// Contributors of books.
	if fam == famMono && (pt != kb.ResourceUnspecified || r.permille(500)) {
		n := 1 + r.pick([]int{60, 30, 10})
		if pt == kb.ResourceThesisDissertation {
			n = 1
		}
		kind, field := "Author", kbart.FirstAuthor
		if edited {
			kind, field = "Editor", kbart.FirstEditor
		}
		cs := g.allocContrib(n)
		for c := range n {
			given := givenNames[r.intn(len(givenNames))]
			g.begin(spanContrib0 + kbart.Field(c))
			g.str(given)
			g.buf = append(g.buf, ' ')
			if c == 0 {
				g.begin(field)
			}
			g.str(surnames[r.intn(len(surnames))])
			if c == 0 {
				g.end(field)
			}
			g.end(spanContrib0 + kbart.Field(c))
			cs[c].Type = kind
		}
		row.Contributors = cs
	}

	// Description for some titles.
	if r.permille(400) {
		g.begin(spanDesc)
		g.appendDescription(&r, fam, ar, t1, t2)
		g.end(spanDesc)
	}
	row.PeerReviewed = pt == kb.ResourceJournal && r.permille(600)

	// Dates and numbering.
	switch fam {
	case famSerial:
		twoRanges = g.serialFields(&r, &rr, rc, part)
		if r.permille(10) && i >= period {
			g.begin(kbart.PrecedingPublicationTitleID)
			g.buf = append(g.buf, 't')
			g.num(i - period + 1)
			g.end(kbart.PrecedingPublicationTitleID)
		}
		row.KBART[kbart.PublicationType] = "serial"
	case famMono:
		y := 2024 - int(60*sq(r.float()))
		if r.permille(850) {
			g.begin(kbart.DateMonographPublishedPrint)
			g.num(y)
			g.end(kbart.DateMonographPublishedPrint)
		}
		g.begin(kbart.DateMonographPublishedOnline)
		if oy := min(y+r.intn(3), 2024); r.permille(500) {
			g.num(oy)
		} else {
			m := r.between(1, 12)
			g.date(oy, m, r.between(1, lastDay(m)))
		}
		g.end(kbart.DateMonographPublishedOnline)
		if pt == kb.ResourceBook && r.permille(250) {
			g.begin(kbart.MonographEdition)
			g.num(r.between(2, 6))
			g.end(kbart.MonographEdition)
		}
		if pt == kb.ResourceBook && r.permille(40) {
			g.begin(kbart.MonographVolume)
			g.num(r.between(1, 4))
			g.end(kbart.MonographVolume)
		}
		row.KBART[kbart.PublicationType] = "monograph"
		row.KBART[kbart.CoverageDepth] = "fulltext"
		if rr.permille(10) {
			row.KBART[kbart.Notes] = "Includes companion online material."
		}
	default:
		g.begin(kbart.DateMonographPublishedOnline)
		g.num(2024 - r.intn(25))
		g.end(kbart.DateMonographPublishedOnline)
		row.KBART[kbart.PublicationType] = "monograph"
		row.KBART[kbart.CoverageDepth] = "fulltext"
	}
	if free {
		row.KBART[kbart.AccessType] = "F"
	} else {
		row.KBART[kbart.AccessType] = "P"
	}

	// One string for all the row's text; fields are slices of it.
	s := string(g.buf)
	for f := range kbart.NumFields {
		if sp := g.spans[f]; sp[1] > sp[0] {
			row.KBART[f] = s[sp[0]:sp[1]]
		}
	}
	if sp := g.spans[spanDesc]; sp[1] > sp[0] {
		row.Description = s[sp[0]:sp[1]]
	}
	for c := range row.Contributors {
		sp := g.spans[spanContrib0+kbart.Field(c)]
		row.Contributors[c].Name = s[sp[0]:sp[1]]
	}
	return row, twoRanges
}

func sq(x float64) float64 { return x * x }

// serialFields fills the coverage, embargo and depth of a serial. It
// reports whether the title has two coverage ranges in this package (only
// decided for part 0, which then gets the first range).
func (g *generator) serialFields(r, rr *rng, rc resCtx, part int) (twoRanges bool) {
	var d serialDates
	d.founded = 2022 - int(150*sq(r.float()))
	d.perYear = [...]int{1, 2, 4, 6, 12}[r.pick([]int{10, 15, 40, 15, 20})]
	d.beginY, d.beginM = d.founded, 1
	if d.founded < 1996 && !r.permille(450) {
		d.beginY = r.between(1996, 2005)
	}
	if r.permille(300) {
		d.endY = d.beginY + r.intn(2025-d.beginY)
	}
	if r.permille(300) {
		d.beginM = r.between(1, 12)
	}
	hasIDs := g.spans[kbart.OnlineIdentifier][1] > 0

	// Resource-level: aggregators often start later and embargo more.
	if rc.agg && rr.permille(600) {
		if y := rr.between(1990, 2010); y > d.beginY && (d.endY == 0 || y <= d.endY) {
			d.beginY, d.beginM = y, 1
		}
	}
	embargo := ""
	if rr.permille(100 + 150*b2i(rc.agg)) {
		embargo = embargoes[rr.intn(len(embargoes))]
	}
	lastY := d.endY
	if lastY == 0 {
		lastY = 2024
	}
	split := hasIDs && lastY-d.beginY >= 6 && rr.permille(15)

	beginY, beginM, endY, endM := d.beginY, d.beginM, d.endY, 12
	switch {
	case split && part == 2:
		mid := d.beginY + (lastY-d.beginY)/2
		beginY, beginM = mid+1+rr.intn(2), 1
	case split:
		mid := d.beginY + (lastY-d.beginY)/2
		endY, endM = mid-1, 12
		twoRanges = true
		embargo = ""
	}

	g.begin(kbart.DateFirstIssueOnline)
	g.date(beginY, beginM, 1)
	g.end(kbart.DateFirstIssueOnline)
	g.begin(kbart.NumFirstVolOnline)
	g.num(beginY - d.founded + 1)
	g.end(kbart.NumFirstVolOnline)
	g.begin(kbart.NumFirstIssueOnline)
	g.num(1 + (beginM-1)*d.perYear/12)
	g.end(kbart.NumFirstIssueOnline)
	if endY != 0 {
		g.begin(kbart.DateLastIssueOnline)
		g.date(endY, endM, lastDay(endM))
		g.end(kbart.DateLastIssueOnline)
		g.begin(kbart.NumLastVolOnline)
		g.num(endY - d.founded + 1)
		g.end(kbart.NumLastVolOnline)
		g.begin(kbart.NumLastIssueOnline)
		g.num(d.perYear)
		g.end(kbart.NumLastIssueOnline)
	}
	if embargo != "" {
		g.field(kbart.EmbargoInfo, embargo)
	}
	depth := "fulltext"
	switch x := rr.intn(1000); {
	case rc.content == kb.ContentAbstractAndIndex && x < 850:
		depth = "abstracts"
	case x < 30:
		depth = "abstracts"
	case x < 50:
		depth = "selectedArticles"
	}
	g.field(kbart.CoverageDepth, depth)
	if rr.permille(20) {
		g.field(kbart.Notes, "Supplements are not included.")
	}
	return twoRanges
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// alloc returns n subjects carved from a shared slab: far fewer allocations
// than one slice per row. The slices are capped, so appending to one
// cannot overwrite another.
func (g *generator) alloc(n int) []kb.Subject {
	if cap(g.subj)-len(g.subj) < n {
		g.subj = make([]kb.Subject, 0, 4096)
	}
	l := len(g.subj)
	g.subj = g.subj[:l+n]
	return g.subj[l : l+n : l+n]
}

func (g *generator) allocContrib(n int) []kb.Contributor {
	if cap(g.contrib)-len(g.contrib) < n {
		g.contrib = make([]kb.Contributor, 0, 4096)
	}
	l := len(g.contrib)
	g.contrib = g.contrib[:l+n]
	return g.contrib[l : l+n : l+n]
}

// dedupSubjects drops repeated headings (two draws of the same heading).
func dedupSubjects(s []kb.Subject) []kb.Subject {
	out := s[:0]
	for _, x := range s {
		dup := false
		for _, y := range out {
			if x == y {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}
