package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// storableText reports whether s is text every store keeps as given: valid
// UTF-8 without NUL characters (PostgreSQL refuses both in text columns;
// SQLite would keep them, so both stores refuse them alike).
func storableText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// checkRequestText refuses a request whose path or query parameters are not
// storable text, naming the parameter, before any handler sees them.
func checkRequestText(r *http.Request) error {
	if !storableText(r.URL.Path) {
		return kb.Errorf(kb.CodeInvalid, "The request path must be UTF-8 text without NUL characters.")
	}
	for name, values := range r.URL.Query() {
		if !storableText(name) {
			return kb.Errorf(kb.CodeInvalid, "Query parameter names must be UTF-8 text without NUL characters.")
		}
		for _, v := range values {
			if !storableText(v) {
				return kb.Errorf(kb.CodeInvalid, "Parameter %s must be UTF-8 text without NUL characters.", name)
			}
		}
	}
	return nil
}

// checkJSONText refuses a decoded JSON body holding a string with a NUL
// character (\u0000), naming the attribute. (The decoder has already
// turned invalid UTF-8 into U+FFFD.)
func checkJSONText(v any, path string) error {
	switch v := v.(type) {
	case string:
		if strings.ContainsRune(v, 0) {
			return kb.Errorf(kb.CodeInvalid, "Attribute %s must not contain NUL characters (\\u0000).", path)
		}
	case map[string]any:
		for name, member := range v {
			if err := checkJSONText(member, joinPath(path, name)); err != nil {
				return err
			}
		}
	case []any:
		for _, item := range v {
			if err := checkJSONText(item, path); err != nil {
				return err
			}
		}
	}
	return nil
}
