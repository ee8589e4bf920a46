package kbsql

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// NewCustomer checks the id and name of a customer to add and returns
// them as stored: the id trimmed, the name the id where it is empty. An id
// may not be empty nor hold spaces, control characters, '/', '?', '#' or
// '.', since it stands in URL paths.
func NewCustomer(id, name string) (string, string, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return "", "", kb.Errorf(kb.CodeMissing, "customer id is empty")
	}
	for _, r := range id {
		if r == '/' || r == '?' || r == '#' || r == '.' || r <= ' ' {
			return "", "", kb.Errorf(kb.CodeInvalid, "customer id %q may not contain spaces, '/', '?', '#' or '.'", id)
		}
	}
	if name == "" {
		name = id
	}
	return id, name, nil
}
