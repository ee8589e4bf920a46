package search

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
)

// fileFormat is the layout of an index file; a file of another layout is
// not read (the index is built from the store and the file written again).
const fileFormat = 6

// Stamp says which data an index file holds: the store's version of the
// indexed data (a counter that starts again in every new database) and a
// fingerprint of the store's tables (kb.TitleFeed.IndexFingerprint), so
// that a file beside a database made anew at the same path is not taken
// for its own.
type Stamp struct {
	Version int64
	Store   string
	// DB is the database's random identity (kb.TitleFeed.StoreIdentity):
	// a file of an older version is caught up only with the change
	// records of its own database.
	DB string
}

// fileHeader opens an index file: its layout, the program that wrote it
// (the index's terms and orders are the code's), its stamp and its number
// of titles.
type fileHeader struct {
	Format int
	Code   string
	Stamp  Stamp
	Titles int
}

// codeID identifies the running program: a hash of its executable, or ""
// when it cannot be read (then no file is written or read).
var codeID = sync.OnceValue(func() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// fieldFile is a field as a file keeps it. Gob refuses nil elements in a
// list: a missing bitmap is kept as an empty one and read back as nil.
type fieldFile struct {
	Terms                      []string
	Postings                   []*roaring.Bitmap
	Rare, RareStart            []uint32
	Enc                        []byte
	TokStart, RankTerm, ListOf []uint32
	Total                      uint64
	ByLen                      []*roaring.Bitmap
	Multi                      map[uint32]*roaring.Bitmap
	NearShort, Common          *roaring.Bitmap
	Pairs                      map[uint64]*roaring.Bitmap
	Trigrams                   map[string][]uint32
}

// parts lists pointers to the parts of an index file after its header,
// in file order: x's own and those of its three fields (fs). Each part is
// one gob value, so that writing one holds no more than that part twice.
func (x *Index) parts(fs *[3]fieldFile) []any {
	ps := []any{&x.ids, &x.byID, &x.all, &x.custom, &x.peer, &x.customOf, &x.byType, &x.packages, &x.pkgOwner,
		&x.subjects, &x.subjPosts, &x.subjOff, &x.subjOf, &x.pkgIDs, &x.pkgOff, &x.pkgOf, &x.oddNames, &x.pubs, &x.pubPosts,
		&x.idents.text, &x.idents.heads, &x.idents.ords}
	for i := range fs {
		f := &fs[i]
		ps = append(ps, &f.Terms, &f.Postings, &f.Rare, &f.RareStart, &f.Enc, &f.TokStart, &f.RankTerm, &f.ListOf,
			&f.Total, &f.ByLen, &f.Multi, &f.NearShort, &f.Common, &f.Pairs, &f.Trigrams)
	}
	return ps
}

// viewParts lists pointers to the parts of a view in an index file; its
// paths are 4 bytes a title.
func viewParts(locale *string, rank *[]uint32, paths *[]byte, tops, blocks *[]*roaring.Bitmap, block *int) []any {
	return []any{locale, rank, paths, tops, blocks, block}
}

// WriteFile writes the index built at stamp, with views, to path: to
// a temporary file beside it, renamed over path once complete, so that a
// reader never sees half a file. It stops, leaving no file, when ctx ends.
func (x *Index) WriteFile(ctx context.Context, path string, stamp Stamp, views []*View) (err error) {
	if codeID() == "" {
		return errors.New("write title index file: the program's executable cannot be read to identify it")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write title index file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("write title index file %s: %w", path, err)
		}
	}()
	w := bufio.NewWriterSize(tmp, 1<<20)
	enc := gob.NewEncoder(w)
	// A copy whose single bitmaps are never nil: gob refuses a nil
	// pointer.
	y := *x
	y.all, y.custom, y.peer = orEmpty(y.all), orEmpty(y.custom), orEmpty(y.peer)
	fs := [3]fieldFile{x.name.file(), x.publisher.file(), x.subject.file()}
	if err := enc.Encode(fileHeader{Format: fileFormat, Code: codeID(), Stamp: stamp, Titles: x.Len()}); err != nil {
		return err
	}
	for _, p := range y.parts(&fs) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if bp, ok := p.(**roaring.Bitmap); ok {
			p = *bp // gob fails on a pointer to one
		}
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	if err := enc.Encode(len(views)); err != nil {
		return err
	}
	for _, v := range views {
		paths := make([]byte, 0, 4*len(v.path))
		for _, p := range v.path {
			paths = append(paths, p[:]...)
		}
		for _, p := range viewParts(&v.locale, &v.rank, &paths, &v.tops, &v.blocks, &v.block) {
			if err := enc.Encode(p); err != nil {
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// errStale reports a file of another layout, program or stamp.
var errStale = errors.New("the title index file holds other data or was written by another program")

// ReadFile reads an index written by WriteFile at stamp, and its views. A
// file of another stamp, program or layout is not read past its header:
// the error wraps errStale.
func ReadFile(path string, stamp Stamp) (*Index, []*View, error) {
	x, views, _, err := readFile(path, func(h Stamp) error {
		if h != stamp {
			return fmt.Errorf("%w: %+v, the store is at %+v", errStale, h, stamp)
		}
		return nil
	})
	return x, views, err
}

// ReadFileSince reads an index written by WriteFile for the database db
// at version or an older one, and its views, and returns the file's
// stamp: a caller catches an older index up with the changes since. A
// file of another database, a newer version, another program or layout is
// not read past its header: the error wraps errStale. fingerprint (the
// store's IndexFingerprint, which counts tables) is asked only of a file
// at version, whose fingerprint must be the store's.
func ReadFileSince(path, db string, version int64, fingerprint func() (string, error)) (*Index, []*View, Stamp, error) {
	return readFile(path, func(h Stamp) error {
		if h.DB != db || h.Version > version {
			return fmt.Errorf("%w: %+v, the store is %s at version %d", errStale, h, db, version)
		}
		if h.Version < version {
			return nil
		}
		fp, err := fingerprint()
		if err != nil {
			return err
		}
		if h.Store != fp {
			return fmt.Errorf("%w: %+v, the store holds %s", errStale, h, fp)
		}
		return nil
	})
}

// readFile reads the index file at path when accept accepts its stamp.
func readFile(path string, accept func(Stamp) error) (*Index, []*View, Stamp, error) {
	x, views, h, err := readFileParts(path, accept)
	if err != nil {
		return nil, nil, h, fmt.Errorf("read title index file %s: %w", path, err)
	}
	return x, views, h, nil
}

func readFileParts(path string, accept func(Stamp) error) (*Index, []*View, Stamp, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, Stamp{}, err
	}
	defer fh.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(fh, 1<<20))
	var h fileHeader
	if err := dec.Decode(&h); err != nil {
		return nil, nil, h.Stamp, err
	}
	switch {
	case h.Format != fileFormat:
		return nil, nil, h.Stamp, fmt.Errorf("%w: format %d, not %d", errStale, h.Format, fileFormat)
	case h.Code != codeID() || h.Code == "":
		return nil, nil, h.Stamp, fmt.Errorf("%w: written by another program", errStale)
	}
	if err := accept(h.Stamp); err != nil {
		return nil, nil, h.Stamp, err
	}
	x := &Index{}
	var fs [3]fieldFile
	for _, p := range x.parts(&fs) {
		if bp, ok := p.(**roaring.Bitmap); ok {
			*bp = roaring.New()
			p = *bp
		}
		if err := dec.Decode(p); err != nil {
			return nil, nil, h.Stamp, err
		}
	}
	x.name, x.publisher, x.subject = fs[0].field(), fs[1].field(), fs[2].field()
	x.all, x.custom, x.peer = orEmpty(x.all), orEmpty(x.custom), orEmpty(x.peer)
	x.customOf, x.byType, x.packages, x.pkgOwner = orMap(x.customOf), orMap(x.byType), orMap(x.packages), orMap(x.pkgOwner)
	x.oddNames = orMap(x.oddNames)
	if len(x.ids) != h.Titles || len(x.byID) != len(x.ids) || !offsets(x.subjOff, len(x.ids), len(x.subjOf)) || !offsets(x.pkgOff, len(x.ids), len(x.pkgOf)) {
		return nil, nil, h.Stamp, errors.New("its lists of titles disagree")
	}
	for _, f := range []*field{x.name, x.publisher, x.subject} {
		if len(f.listOf) != len(x.ids) || !f.tokenListsValid() {
			return nil, nil, h.Stamp, errors.New("its token lists disagree with its titles or terms")
		}
		f.deriveLists()
	}
	var n int
	if err := dec.Decode(&n); err != nil {
		return nil, nil, h.Stamp, err
	}
	var views []*View
	for range n {
		v := &View{}
		var paths []byte
		for _, p := range viewParts(&v.locale, &v.rank, &paths, &v.tops, &v.blocks, &v.block) {
			if err := dec.Decode(p); err != nil {
				return nil, nil, h.Stamp, err
			}
		}
		if len(v.rank) != len(x.ids) || len(paths) != 4*len(x.ids) || v.block <= 0 || len(v.tops) != len(alpha.TopEntries()) {
			return nil, nil, h.Stamp, fmt.Errorf("its view of %s disagrees with its titles", v.locale)
		}
		v.path = make([]alpha.Path, len(v.rank))
		for i := range v.path {
			copy(v.path[i][:], paths[4*i:])
		}
		views = append(views, v)
	}
	return x, views, h.Stamp, nil
}

// tokenListsValid reports whether every title's token list is one of the
// field's, every list lies in enc, and every token decodes to a term: a
// file that passes is read without an index out of range.
func (f *field) tokenListsValid() bool {
	nl := len(f.tokStart) - 1
	if nl < 1 || f.tokStart[0] != 0 || int(f.tokStart[nl]) != len(f.enc) || !slices.IsSorted(f.tokStart) {
		return false
	}
	if slices.ContainsFunc(f.listOf, func(l uint32) bool { return int(l) >= nl }) ||
		slices.ContainsFunc(f.rankTerm, func(t uint32) bool { return int(t) >= len(f.terms) }) {
		return false
	}
	for enc := f.enc; len(enc) > 0; {
		r, n := binary.Uvarint(enc)
		if n <= 0 || r >= uint64(len(f.rankTerm)) {
			return false
		}
		enc = enc[n:]
	}
	return true
}

// offsets reports whether off holds the n+1 ascending offsets of lists
// that fill a list of size elements.
func offsets(off []uint32, n, size int) bool {
	if len(off) != n+1 || off[0] != 0 || int(off[n]) != size {
		return false
	}
	for i := range n {
		if off[i] > off[i+1] {
			return false
		}
	}
	return true
}

// file returns f as a file keeps it.
func (f *field) file() fieldFile {
	return fieldFile{
		Terms: f.terms, Postings: noNils(f.postings), Rare: f.rare, RareStart: f.rareStart,
		Enc: f.enc, TokStart: f.tokStart, RankTerm: f.rankTerm, ListOf: f.listOf, Total: f.total,
		ByLen: noNils(f.byLen), Multi: f.multi, NearShort: orEmpty(f.nearShort), Common: orEmpty(f.common), Pairs: f.pairs, Trigrams: f.trigrams,
	}
}

// field returns the field ff keeps.
func (ff fieldFile) field() *field {
	return &field{
		terms: ff.Terms, postings: nils(ff.Postings), rare: ff.Rare, rareStart: ff.RareStart,
		enc: ff.Enc, tokStart: ff.TokStart, rankTerm: ff.RankTerm, listOf: ff.ListOf, total: ff.Total,
		byLen: nils(ff.ByLen), multi: orMap(ff.Multi), nearShort: orEmpty(ff.NearShort), common: orEmpty(ff.Common),
		pairs: orMap(ff.Pairs), trigrams: orMap(ff.Trigrams), prefixes: map[uint64]*roaring.Bitmap{},
	}
}

// noNils returns bms with an empty bitmap for each nil one.
func noNils(bms []*roaring.Bitmap) []*roaring.Bitmap {
	out := make([]*roaring.Bitmap, len(bms))
	empty := roaring.New()
	for i, b := range bms {
		if b == nil {
			b = empty
		}
		out[i] = b
	}
	return out
}

// nils returns bms with nil for each empty bitmap, as noNils was given.
func nils(bms []*roaring.Bitmap) []*roaring.Bitmap {
	for i, b := range bms {
		if b.IsEmpty() {
			bms[i] = nil
		}
	}
	return bms
}

// orEmpty returns b, or an empty bitmap for nil (gob leaves out an empty
// bitmap's field).
func orEmpty(b *roaring.Bitmap) *roaring.Bitmap {
	if b == nil {
		return roaring.New()
	}
	return b
}

// orMap returns m, or an empty map for nil (gob leaves out an empty map).
func orMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}
