package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kbart"
)

// maxShownProblems bounds the per-row problems printed.
const maxShownProblems = 50

// problems collects the rejections and repairs of an import: the first
// ones in full, the rest as counts by kind, so that memory stays bounded.
type problems struct {
	rejected, repaired int // rows
	normalized         int // rows with a harmless normalisation (and no repair)
	shownRejects       []string
	shownRepairs       []string
	byKind             map[string]int
	order              []string // kinds in order of first appearance
}

// maxKinds bounds the number of distinct kinds counted.
const maxKinds = 200

func newProblems() *problems { return &problems{byKind: map[string]int{}} }

func (p *problems) reject(file string, e *kbart.RowError) {
	p.rejected++
	if len(p.shownRejects) < maxShownProblems {
		p.shownRejects = append(p.shownRejects, fmt.Sprintf("%s:%d: %s", file, e.Line, e.Reason))
	}
	p.count("rejected: " + kindOf(e.Reason))
}

// row counts the problems of a row the reader returned: a row with a
// repair or a flag is repaired; one with normalisations only is counted
// apart.
func (p *problems) row(file string, row kbart.Row) {
	if len(row.Repairs) > 0 {
		p.repair(file, row.Line, row.Repairs)
		return
	}
	if len(row.Problems) > 0 {
		p.normalized++
	}
}

func (p *problems) repair(file string, line int, repairs []string) {
	p.repaired++
	for _, r := range repairs {
		if len(p.shownRepairs) < maxShownProblems {
			p.shownRepairs = append(p.shownRepairs, fmt.Sprintf("%s:%d: %s", file, line, r))
		}
		p.count(kindOf(r))
	}
}

func (p *problems) count(kind string) {
	if _, ok := p.byKind[kind]; !ok {
		if len(p.byKind) >= maxKinds {
			kind = "other problems"
		}
		if _, ok := p.byKind[kind]; !ok {
			p.order = append(p.order, kind)
		}
	}
	p.byKind[kind]++
}

// kindOf groups a message by its shape: quoted values become "…" and
// numbers N, so `date_first_issue_online "2001/01/01" read as 2001-01-01`
// is of kind `date_first_issue_online "…" read as N-N-N`.
func kindOf(msg string) string {
	var b strings.Builder
	quoted, digits := false, false
	for _, r := range msg {
		switch {
		case r == '"':
			if !quoted {
				b.WriteString(`"…"`)
			}
			quoted, digits = !quoted, false
		case quoted:
		case r >= '0' && r <= '9':
			if !digits {
				b.WriteByte('N')
			}
			digits = true
		default:
			b.WriteRune(r)
			digits = false
		}
	}
	return b.String()
}

// print lists the problems on w: up to maxShownProblems rows (unless
// quiet), then the counts by kind.
func (p *problems) print(w io.Writer, quiet bool) {
	if p.rejected == 0 && p.repaired == 0 {
		return
	}
	if !quiet {
		shown := 0
		list := func(title string, n int, lines []string) {
			if n == 0 {
				return
			}
			fmt.Fprintf(w, "%s rows (%d):\n", title, n)
			for _, l := range lines {
				if shown == maxShownProblems {
					break
				}
				fmt.Fprintf(w, "  %s\n", l)
				shown++
			}
		}
		list("Rejected", p.rejected, p.shownRejects)
		list("Repaired", p.repaired, p.shownRepairs)
		total := 0
		for _, n := range p.byKind {
			total += n
		}
		if rest := total - shown; rest > 0 {
			fmt.Fprintf(w, "  … and %d more\n", rest)
		}
	}
	kinds := slices.Clone(p.order)
	slices.SortStableFunc(kinds, func(a, b string) int { return p.byKind[b] - p.byKind[a] })
	fmt.Fprintf(w, "Problems by kind (%d rows rejected, %d repaired):\n", p.rejected, p.repaired)
	for _, k := range kinds {
		fmt.Fprintf(w, "  %7d × %s\n", p.byKind[k], k)
	}
}
