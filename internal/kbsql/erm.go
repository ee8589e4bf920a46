package kbsql

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// ERMTimeLayout is the layout of the stored times of resource management
// objects and assignments: UTC with nine fraction digits, so that text
// order (byte order) is time order for the years 0 to 9999, and
// nanoseconds survive.
const ERMTimeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatERMTime returns t as stored (ERMTimeLayout, in UTC).
func FormatERMTime(t time.Time) string { return t.UTC().Format(ERMTimeLayout) }

// parseERMTime reads a stored time back, in UTC.
func parseERMTime(s string) (time.Time, error) { return time.Parse(ERMTimeLayout, s) }

// ERMBodyPaths are the members, in an object's body, of the list fields
// that the body holds (kb.ERMField): the path of object keys to a
// member. The other fields are columns (status, description, the times)
// or come from the assignments.
var ERMBodyPaths = map[kb.ERMField][]string{
	kb.FieldContactName:  {"contactPoint", "name"},
	kb.FieldContactType:  {"contactPoint", "contactType"},
	kb.FieldTelephone:    {"contactPoint", "telephone"},
	kb.FieldEmail:        {"contactPoint", "email"},
	kb.FieldOrganization: {"organization", "name"},
	kb.FieldLicenseType:  {"license", "licenseType"},
	kb.FieldDocumentURL:  {"externalDocument", "url"},
}

// ERMBody returns a payload body as stored: a JSON object, "{}" when
// empty. Anything else is CodeInvalid, naming what (e.g. "contact 42"): a
// stored body that is not a JSON object would make every list of the
// customer's objects fail when it reads the body's members.
func ERMBody(what string, body []byte) (string, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "{}", nil
	}
	if trimmed[0] != '{' || !json.Valid(trimmed) {
		return "", kb.Errorf(kb.CodeInvalid, "The body of %s must be a JSON object.", what)
	}
	if _, esc := kb.BadEscape(trimmed); esc != "" {
		return "", kb.Errorf(kb.CodeInvalid, "The body of %s holds the escape %s, which is no character a store can keep (U+0000, or half of a surrogate pair).", what, esc)
	}
	return string(body), nil
}

// ErrUnstorableText marks an engine's refusal of a text value it cannot
// store (PostgreSQL's NUL character or invalid UTF-8).
var ErrUnstorableText = errors.New("text the database cannot store")

// CheckERMPage refuses a page of a list of objects or assignments that the
// caller did not fill in (CodeInvalid).
func CheckERMPage(p kb.Page) error {
	if p.Count < 1 || p.Number < 1 {
		return kb.Errorf(kb.CodeInvalid, "Page size %d and page number %d must both be 1 or more.", p.Count, p.Number)
	}
	return nil
}
