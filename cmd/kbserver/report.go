package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kbart"
)

// problemReport is the file of import kbart --report: every repaired,
// flagged and rejected row's problems, one a line, tab-separated, after a
// header line. A nil report writes nothing.
type problemReport struct {
	path string
	f    *os.File
	w    *bufio.Writer
	err  error // the first write error
}

// reportColumns is the report's header.
var reportColumns = []string{"file", "line", "kind", "field", "original", "action", "reason"}

// createReport creates the report file at path.
func createReport(path string) (*problemReport, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--report: %w", err)
	}
	r := &problemReport{path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}
	r.line(reportColumns...)
	return r, nil
}

// reportField turns a value into one field of the report: tabs and line
// breaks become spaces.
var reportField = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ")

func (r *problemReport) line(fields ...string) {
	for i, f := range fields {
		if i > 0 {
			r.w.WriteByte('\t')
		}
		r.w.WriteString(reportField.Replace(f))
	}
	r.w.WriteByte('\n')
}

// row writes the repairs and flags of a row the reader returned (its
// normalisations are only counted).
func (r *problemReport) row(file string, row kbart.Row) error {
	if r == nil || len(row.Repairs) == 0 {
		return nil
	}
	for _, p := range row.Problems {
		if p.Kind == kbart.Repaired || p.Kind == kbart.Flagged {
			r.problem(file, row.Line, p)
		}
	}
	return r.check()
}

// reject writes a rejected row.
func (r *problemReport) reject(file string, e *kbart.RowError) error {
	if r == nil {
		return nil
	}
	p := e.Problem
	if p.Reason == "" {
		p.Reason = e.Reason
	}
	r.problem(file, e.Line, p)
	return r.check()
}

func (r *problemReport) problem(file string, line int, p kbart.Problem) {
	r.line(file, strconv.Itoa(line), p.Kind.String(), p.Field, p.Original, p.Action, p.Reason)
}

// check returns the first error writing the report.
func (r *problemReport) check() error {
	if r.err == nil && r.w.Available() < 4096 {
		r.err = r.w.Flush()
	}
	if r.err != nil {
		return fmt.Errorf("--report %s: %w", r.path, r.err)
	}
	return nil
}

// close flushes and closes the report; closing it again does nothing.
func (r *problemReport) close() error {
	if r == nil || r.f == nil {
		return nil
	}
	err := r.w.Flush()
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	r.f = nil
	if err != nil {
		return fmt.Errorf("--report %s: %w", r.path, err)
	}
	return nil
}
