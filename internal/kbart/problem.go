package kbart

import "strconv"

// This file describes the problems the reader finds in a row, in a form a
// program can sort and count (Problem) besides the messages of Row.Repairs.

// ProblemKind says what the reader did about a problem.
type ProblemKind int

// The kinds of problem. The zero value is not a kind.
const (
	// Repaired: a value was wrong and the reader changed it into what it
	// most likely meant (a date reformatted, HTML entities decoded, a row
	// realigned with its header).
	Repaired ProblemKind = iota + 1
	// Flagged: a suspicious value was kept as it is, or cleared because it
	// cannot be used (a word in a date column, an ISSN with a wrong check
	// digit).
	Flagged
	// Normalized: a harmless change that loses nothing, such as a time of
	// day 00:00:00 dropped from a date or "Serial" written "serial". The
	// list is in the package documentation.
	Normalized
	// Rejected: the row cannot be used; Next returns it as a *RowError.
	Rejected
)

// String returns "repaired", "flagged", "normalized" or "rejected".
func (k ProblemKind) String() string {
	switch k {
	case Repaired:
		return "repaired"
	case Flagged:
		return "flagged"
	case Normalized:
		return "normalized"
	case Rejected:
		return "rejected"
	}
	return "ProblemKind(" + strconv.Itoa(int(k)) + ")"
}

// Problem is one problem found in a row, and what the reader did about it.
type Problem struct {
	Kind ProblemKind
	// Field is the header name of the standard field at fault (such as
	// "date_first_issue_online"), the name of an extra column as given by
	// Reader.ExtraColumns, or "" when the problem is about the whole row.
	Field string
	// Original is the value as read, cut to 200 bytes (maxOriginal); for a
	// problem about the whole row it is the start of the line, or "".
	Original string
	// Action says what was done: "read as 1905", "cleared", "trimmed",
	// "moved one column left", "row rejected", and so on.
	Action string
	// Reason says why, for a person.
	Reason string
}

// maxOriginal bounds Problem.Original, in bytes.
const maxOriginal = 200

// noField marks a problem about the whole row.
const noField Field = -1

// rowProblems gathers the problems of one row, and the messages of those
// that go to Row.Repairs (the Repaired and Flagged ones). Both stay nil
// for a clean row.
type rowProblems struct {
	probs []Problem
	rep   []string
	// extraNames names the extra columns, for problems in their values.
	extraNames []string
}

// add records a problem in field f (noField for the whole row). msg is the
// Row.Repairs message; it is ignored for a Normalized problem.
func (p *rowProblems) add(kind ProblemKind, f Field, orig, action, reason, msg string) {
	name := ""
	if f != noField {
		name = f.String()
	}
	p.addNamed(kind, name, orig, action, reason, msg)
}

// addExtra records a problem in extra column i.
func (p *rowProblems) addExtra(kind ProblemKind, i int, orig, action, reason, msg string) {
	p.addNamed(kind, p.extraNames[i], orig, action, reason, msg)
}

// addNamed records a problem in the column called name.
func (p *rowProblems) addNamed(kind ProblemKind, name, orig, action, reason, msg string) {
	p.probs = append(p.probs, Problem{Kind: kind, Field: name, Original: cutBytes(orig, maxOriginal), Action: action, Reason: reason})
	if kind == Repaired || kind == Flagged {
		p.rep = append(p.rep, msg)
	}
}

// cutBytes cuts s to at most n bytes without splitting a UTF-8 sequence.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
