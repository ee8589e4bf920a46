package kb

import "strings"

// This file holds the rules of the fields of a custom title that can be
// decided from the request alone. They are pure: callers word a violation
// for their own clients (the HTTP API names the JSON member).

// LookupPubType finds a title's publication type by its name in any case,
// journal to audiobook, surrounding white space ignored. ResourceAll, a
// filter value only, and numbers are no publication types: ok is false
// for them as for anything else.
func LookupPubType(s string) (t ResourceType, ok bool) {
	name := strings.TrimSpace(s)
	for t := ResourceJournal; t <= ResourceAudioBook; t++ {
		if strings.EqualFold(name, t.String()) {
			return t, true
		}
	}
	return ResourceAll, false
}

// PubTypeNames lists the names of the publication types, journal first.
func PubTypeNames() []string { return ResourceTypeNames()[1:] }

// contributorTypes maps the contributor types, in lower case, to the form
// a Contributor keeps.
var contributorTypes = map[string]string{"author": "Author", "editor": "Editor", "illustrator": "Illustrator"}

// LookupContributorType finds a contributor type, author, editor or
// illustrator in any case (surrounding white space ignored), and returns
// the form a Contributor keeps: "Author", "Editor" or "Illustrator". ok is
// false for anything else.
func LookupContributorType(s string) (typ string, ok bool) {
	typ, ok = contributorTypes[strings.ToLower(strings.TrimSpace(s))]
	return typ, ok
}

// Valid reports whether t is an identifier type: ISSN or ISBN.
func (t IdentifierType) Valid() bool { return t == IdentISSN || t == IdentISBN }

// Valid reports whether s names a manifestation: print or online.
// SubtypeEmpty, which names none, is not a subtype a client can give.
func (s IdentifierSubtype) Valid() bool { return s == SubtypePrint || s == SubtypeOnline }

// The violations CheckCustomTitle reports.
var (
	ErrTitleNameMissing = Errorf(CodeMissing, "A custom title needs a name.")
	ErrPubTypeMissing   = Errorf(CodeMissing, "A custom title needs a publication type.")
)

// CheckCustomTitle applies the rule that a custom title needs a name and a
// publication type, each given as the text the client sent (white space
// only is none). It reports the name first (ErrTitleNameMissing), then the
// publication type (ErrPubTypeMissing); whether a publication type that
// is given is one is LookupPubType's to say.
func CheckCustomTitle(name, pubType string) error {
	if strings.TrimSpace(name) == "" {
		return ErrTitleNameMissing
	}
	if strings.TrimSpace(pubType) == "" {
		return ErrPubTypeMissing
	}
	return nil
}
