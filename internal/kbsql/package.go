package kbsql

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// PackageTitleTotal returns the total of a title list scoped to package p
// when the package's own counts give it (no search, no type or package
// filter), so that a page of a million-title package costs no count; -1
// otherwise.
func PackageTitleTotal(p kb.Package, q kb.TitleQuery) int {
	if strings.TrimSpace(q.Search) != "" || q.ResourceType != kb.ResourceAll || len(q.PackageIDs) > 0 {
		return -1
	}
	switch q.Selection {
	case kb.SelectionAll:
		return p.TitleCount
	case kb.SelectionSelected:
		return p.SelectedCount
	case kb.SelectionNotSelected:
		return p.TitleCount - p.SelectedCount
	case kb.SelectionOrderedThroughOperator:
		return 0
	}
	return -1
}
