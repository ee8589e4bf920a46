package kb

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// Limits of a note's fields, in characters (not bytes).
const (
	MaxNoteText   = 4000 // Note.Text
	MaxNoteName   = 200  // Note.Name
	MaxNoteRank   = 1000 // Note.Rank is 0 to MaxNoteRank
	MaxNoteShowOn = 10   // number of Note.ShowOn flags
)

// Validate checks the fields a customer gives a note and returns the first
// problem as an *Error: CodeMissing when the text is blank, CodeInvalid for
// any other unusable value. The rules:
//
//   - Text is required (not only white space) and at most MaxNoteText
//     characters;
//   - Name is at most MaxNoteName characters;
//   - Rank is from 0 to MaxNoteRank, IconID is 0 or more;
//   - IconURL and LinkURL, when given, are absolute http or https URLs;
//   - ShowOn holds at most MaxNoteShowOn flags, each a non-blank string
//     without commas.
//
// Each message names the field both as the API attribute (PfNote) and as
// the flag of "kbserver note add", so that it serves either caller.
// Validate does not look at PackageID and TitleID: whether the resource
// exists is the store's to say.
func (n Note) Validate() error {
	if strings.TrimSpace(n.Text) == "" {
		return Errorf(CodeMissing, "Note text (noteText, --text) is required: give the text to show with the resource.")
	}
	if c := utf8.RuneCountInString(n.Text); c > MaxNoteText {
		return Errorf(CodeInvalid, "Note text (noteText, --text) is %d characters long: at most %d are allowed.", c, MaxNoteText)
	}
	if c := utf8.RuneCountInString(n.Name); c > MaxNoteName {
		return Errorf(CodeInvalid, "Note name (noteName, --name) is %d characters long: at most %d are allowed.", c, MaxNoteName)
	}
	if n.Rank < 0 || n.Rank > MaxNoteRank {
		return Errorf(CodeInvalid, "Note rank (rank, --rank) must be a whole number from 0 to %d, not %d.", MaxNoteRank, n.Rank)
	}
	if n.IconURL != "" && !isAbsoluteHTTP(n.IconURL) {
		return Errorf(CodeInvalid, "Note icon URL (iconUrl, --icon) %q must be an absolute http or https URL, such as https://library.example/icon.png.", n.IconURL)
	}
	if n.IconID < 0 {
		return Errorf(CodeInvalid, "Note icon id (iconId, --icon-id) must be 0 or more, not %d.", n.IconID)
	}
	if n.LinkURL != "" && !isAbsoluteHTTP(n.LinkURL) {
		return Errorf(CodeInvalid, "Note link URL (linkUrl, --link) %q must be an absolute http or https URL, such as https://library.example/help.", n.LinkURL)
	}
	if len(n.ShowOn) > MaxNoteShowOn {
		return Errorf(CodeInvalid, "Note show-on flags (showOnFlags, --show-on) number %d: at most %d are allowed.", len(n.ShowOn), MaxNoteShowOn)
	}
	for i, f := range n.ShowOn {
		if strings.TrimSpace(f) == "" {
			return Errorf(CodeInvalid, "Note show-on flag %d of %d (showOnFlags, --show-on) is empty: each flag needs a name.", i+1, len(n.ShowOn))
		}
		if strings.Contains(f, ",") {
			return Errorf(CodeInvalid, "Note show-on flag %q (showOnFlags, --show-on) contains a comma: give each flag as its own value.", f)
		}
	}
	return nil
}

// isAbsoluteHTTP reports whether s is an absolute http or https URL with a
// host and no white space.
func isAbsoluteHTTP(s string) bool {
	if strings.ContainsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" && u.Opaque == ""
}

// NewNote checks a note to add (Validate) and gives it an empty show-on
// list where it has none, as it is stored and returned.
func NewNote(n *Note) error {
	if err := n.Validate(); err != nil {
		return err
	}
	if n.ShowOn == nil {
		n.ShowOn = []string{}
	}
	return nil
}
