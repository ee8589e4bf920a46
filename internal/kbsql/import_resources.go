package kbsql

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// ImportTitle is the title an import row belongs to, as a batch knows it.
type ImportTitle struct {
	ID      int64
	Sort    string          // the folded name
	PubType kb.ResourceType // the title's
}

// ImportState says how an import batch writes a resource.
type ImportState int

const (
	ResourceNew    ImportState = iota // not in the package before this import
	ResourcePrior                     // in the package before; first listed in this batch
	ResourceAppend                    // already written by this import: more coverage rows
)

// ImportResource is a resource as an import batch writes it.
type ImportResource struct {
	TitleID      int64
	Sort         string
	PubType      kb.ResourceType // the title's
	URL          string
	Coverage     []json.RawMessage
	EmbargoUnit  kb.EmbargoUnit
	EmbargoValue int
	KBART        string // the resource's KBART rows, one a line
	Hash         uint64 // fnv64 of KBART
	PrevHash     int64  // ResourcePrior: the hash before this import
	State        ImportState
}

// CoverageJSON returns the resource's coverage column: a JSON array.
func (r *ImportResource) CoverageJSON() string {
	if r.Coverage == nil {
		return "[]"
	}
	b, _ := json.Marshal(r.Coverage)
	return string(b)
}

// PriorResource is what a batch needs to know of a resource already in the
// package: its generation and row hash, and for a resource this import
// already wrote (Gen is the import's) its KBART rows, coverage, URL and
// embargo. A store may leave out what its writes do not use.
type PriorResource struct {
	Gen          int64
	Hash         int64
	KBART        string
	Coverage     string
	URL          string
	EmbargoUnit  int
	EmbargoValue int
}

// ImportResources turns a batch's rows, each with its title (refs[i] is
// ps[i]'s), into the package's resources to write, in first-row order: the
// first row of a title in this import (generation gen) replaces the
// resource's data, later rows add coverage ranges and KBART rows; an exact
// duplicate row is skipped. existing holds the package's resources of the
// batch's titles by title id.
func ImportResources(ps []ImportRow, refs []ImportTitle, existing map[int64]PriorResource, gen int64) ([]*ImportResource, error) {
	pending := map[int64]*ImportResource{}
	var order []*ImportResource
	for i := range ps {
		t, v := refs[i], &ps[i].Row.KBART
		line := strings.Join(v[:], "\t")
		cov := CoverageJSON(v)
		r, ok := pending[t.ID]
		if !ok {
			r = &ImportResource{TitleID: t.ID, Sort: t.Sort, PubType: t.PubType}
			pending[t.ID] = r
			order = append(order, r)
			if ex, ok := existing[t.ID]; ok && ex.Gen == gen {
				r.State, r.KBART, r.Hash = ResourceAppend, ex.KBART, fnv64(0, ex.KBART)
				r.URL, r.EmbargoUnit, r.EmbargoValue = ex.URL, kb.EmbargoUnit(ex.EmbargoUnit), ex.EmbargoValue
				if err := json.Unmarshal([]byte(ex.Coverage), &r.Coverage); err != nil {
					return nil, fmt.Errorf("resource coverage: %w", err)
				}
			} else {
				if ok {
					r.State, r.PrevHash = ResourcePrior, ex.Hash
				}
				r.URL = strings.TrimSpace(v[kbart.TitleURL])
				r.EmbargoUnit, r.EmbargoValue = rowEmbargo(v)
				r.KBART, r.Hash = line, fnv64(0, line)
				if cov != nil {
					r.Coverage = append(r.Coverage, cov)
				}
				continue
			}
		}
		if hasLine(r.KBART, line) {
			continue // a duplicate row
		}
		r.KBART += "\n" + line
		r.Hash = fnv64(fnv64(r.Hash, "\n"), line)
		if cov != nil {
			r.Coverage = append(r.Coverage, cov)
		}
	}
	return order, nil
}

// TitleIDs returns the ids of the titles, in order.
func TitleIDs(refs []ImportTitle) []int64 {
	ids := make([]int64, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return ids
}
