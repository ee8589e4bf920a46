package kbsql

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// StoredContentType is the content type a package is created with:
// kb.ContentAll (which only a search filter means) is stored as
// kb.ContentUnknown.
func StoredContentType(ct kb.ContentType) kb.ContentType {
	if ct == kb.ContentAll {
		return kb.ContentUnknown
	}
	return ct
}

// CustomPackageName returns the name of a custom package to create,
// trimmed; CodeMissing when it is empty.
func CustomPackageName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", kb.Errorf(kb.CodeMissing, "Attribute PackageName is missing.")
	}
	return name, nil
}

// PackageTitleTotal returns the total of a title list scoped to package p
// when the package's own counts give it (no search, no type filter), so
// that a page of a million-title package costs no count; -1 otherwise.
func PackageTitleTotal(p kb.Package, q kb.TitleQuery) int {
	if strings.TrimSpace(q.Search) != "" || q.ResourceType != kb.ResourceAll {
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
