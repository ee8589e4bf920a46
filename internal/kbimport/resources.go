package kbimport

import (
	"encoding/json"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// importedResource is a resource as an import's rows make it.
type importedResource struct {
	providerID   string
	url          string
	coverage     []json.RawMessage
	embargoUnit  kb.EmbargoUnit
	embargoValue int
	lines        []string // its KBART rows, in file order, without exact duplicates
	hash         uint64   // fnv64 of the rows joined by "\n"
}

// aggregate makes one resource of a title's rows in a package (at least
// one), in file order: the first row gives the URL, embargo and provider
// title_id; each row adds its coverage range and its KBART row; an exact
// duplicate row is skipped.
func aggregate(rows []stagedRow) importedResource {
	r := importedResource{providerID: rows[0].providerID, url: rows[0].url}
	for i, s := range rows {
		if i > 0 && containsLine(r.lines, s.kbart) {
			continue
		}
		v := kbartFields(s.kbart)
		if i == 0 {
			r.embargoUnit, r.embargoValue = rowEmbargo(v)
		}
		r.lines = append(r.lines, s.kbart)
		if c := CoverageJSON(v); c != nil {
			r.coverage = append(r.coverage, c)
		}
	}
	r.hash = fnv64(0, strings.Join(r.lines, "\n"))
	return r
}

func containsLine(lines []string, l string) bool {
	for _, x := range lines {
		if x == l {
			return true
		}
	}
	return false
}

// coverageJSON returns the resource's coverage column: a JSON array.
func (r *importedResource) coverageJSON() string {
	if r.coverage == nil {
		return "[]"
	}
	b, _ := json.Marshal(r.coverage)
	return string(b)
}

// state is the resource as an import's change records it.
func (r *importedResource) state() string {
	return importedState(r.url, json.RawMessage(r.coverageJSON()), int(r.embargoUnit), r.embargoValue, len(r.lines))
}

// deltaRow is the import_delta row (deltaColumns) that adds or rewrites
// the resource of title t.
func (r *importedResource) deltaRow(importID int64, kind int, t int64, object, action, before, after string) []any {
	return []any{importID, kind, t, r.providerID, "", "", "", 0, r.url, r.coverageJSON(), int(r.embargoUnit), r.embargoValue,
		strings.Join(r.lines, "\n"), int64(r.hash), "", int64(0), 0, 0, "", object, action, before, after}
}
