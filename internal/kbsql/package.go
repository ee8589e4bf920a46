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
