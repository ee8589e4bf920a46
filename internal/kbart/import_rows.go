package kbart

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// ErrNoRows ends the rows of a Source whose files held no row the import
// can use, so that an import stops rather than empty its package.
var ErrNoRows = errors.New("no importable rows")

// SourceFile is one KBART file of a Source: its name, for messages, and
// its Reader, whose header is read.
type SourceFile struct {
	Name   string
	Reader *Reader
}

// Source yields the rows of one or more KBART files in turn as an import
// takes them (kb.Importer's next): the rows the reader returns, with the
// values of the files' non-standard columns in the order of
// ExtraColumns, and the rows it rejects, marked Rejected (they keep the
// titles they stand for). After the last row it returns io.EOF, or
// ErrNoRows when no row was usable. `import kbart` and the package feeds
// read their files through it.
type Source struct {
	files   []SourceFile
	cur     int
	columns []string // the non-standard columns of all the files
	index   []int    // for the current file: its extra columns' positions in columns
	read    int      // data rows read, rejected ones included
	valid   int
	// OnRow, when set, sees each row the reader returned; an error ends
	// the rows.
	OnRow func(file string, row Row) error
	// OnReject, when set, sees each row the reader rejected; an error
	// ends the rows.
	OnReject func(file string, e *RowError) error
}

// NewSource returns a Source of the files, read in turn.
func NewSource(files ...SourceFile) *Source {
	s := &Source{files: files}
	for _, f := range files {
		for _, c := range f.Reader.ExtraColumns() {
			if !slices.Contains(s.columns, c) {
				s.columns = append(s.columns, c)
			}
		}
	}
	return s
}

// ExtraColumns returns the non-standard columns of the files, each name
// once, in the order of their first appearance: the import's
// kb.PackageSpec.ExtraColumns.
func (s *Source) ExtraColumns() []string { return slices.Clone(s.columns) }

// Read returns the number of data rows read so far, rejected ones
// included.
func (s *Source) Read() int { return s.read }

// Rejected returns the number of rows read so far that the reader
// rejected.
func (s *Source) Rejected() int { return s.read - s.valid }

// Next returns the next row; see Source.
func (s *Source) Next() (kb.ImportRow, error) {
	for s.cur < len(s.files) {
		f := s.files[s.cur]
		if s.index == nil {
			for _, c := range f.Reader.ExtraColumns() {
				s.index = append(s.index, slices.Index(s.columns, c))
			}
			if s.index == nil {
				s.index = []int{}
			}
		}
		row, err := f.Reader.Next()
		if err == io.EOF {
			s.cur++
			s.index = nil
			continue
		}
		var re *RowError
		if errors.As(err, &re) {
			s.read++
			if s.OnReject != nil {
				if err := s.OnReject(f.Name, re); err != nil {
					return kb.ImportRow{}, err
				}
			}
			return kb.ImportRow{Line: re.Line, KBART: re.Values, Rejected: true}, nil
		}
		if err != nil {
			return kb.ImportRow{}, fmt.Errorf("%s: %w", f.Name, err)
		}
		s.read++
		s.valid++
		if s.OnRow != nil {
			if err := s.OnRow(f.Name, row); err != nil {
				return kb.ImportRow{}, err
			}
		}
		ir := kb.ImportRow{Line: row.Line, KBART: row.Values}
		if len(s.columns) > 0 {
			ir.Extra = make([]string, len(s.columns))
			for i, v := range row.Extra {
				ir.Extra[s.index[i]] = v
			}
		}
		return ir, nil
	}
	if s.valid == 0 {
		return kb.ImportRow{}, ErrNoRows
	}
	return kb.ImportRow{}, io.EOF
}
