package web

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// Enum reads the parameter name with parse, which gets the parameter's name
// and value and reports a bad value with an error naming the parameter (the
// Parse* functions of this file do). An absent or empty parameter gives
// def.
func Enum[T any](q Query, name string, def T, parse func(name, value string) (T, error)) (T, error) {
	s := q.Get(name)
	if s == "" {
		return def, nil
	}
	return parse(name, s)
}

// ParseContentType reads the parameter name's value as a content type: its
// name in any case (ejournal) or its number.
func ParseContentType(name, value string) (kb.ContentType, error) {
	return enumValue(name, value, kb.LookupContentType, kb.ContentTypeNames())
}

// ParseSelection reads the parameter name's value as a selection filter:
// its name in any case (notselected) or its number.
func ParseSelection(name, value string) (kb.Selection, error) {
	return enumValue(name, value, kb.LookupSelection, kb.SelectionNames())
}

// ParseResourceType reads the parameter name's value as a resource type:
// its name in any case (bookseries) or its number.
func ParseResourceType(name, value string) (kb.ResourceType, error) {
	return enumValue(name, value, kb.LookupResourceType, kb.ResourceTypeNames())
}

// ParseSearchField reads the parameter name's value as a search field: its
// name in any case (isxn) or its number.
func ParseSearchField(name, value string) (kb.SearchField, error) {
	return enumValue(name, value, kb.LookupSearchField, kb.SearchFieldNames())
}

// ParseSearchType reads the parameter name's value as a search type: its
// name in any case (exactmatch) or its number.
func ParseSearchType(name, value string) (kb.SearchType, error) {
	return enumValue(name, value, kb.LookupSearchType, kb.SearchTypeNames())
}

// enumValue reads value with lookup. A value lookup does not know is a
// CodeInvalid error naming the parameter and listing names, the
// enumeration's names in the order of their numbers.
func enumValue[T any](name, value string, lookup func(string) (T, bool), names []string) (T, error) {
	v, ok := lookup(value)
	if !ok {
		return v, kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are %s (or 0-%d).",
			name, value, strings.Join(names, ", "), len(names)-1)
	}
	return v, nil
}
