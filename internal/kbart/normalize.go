package kbart

import (
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file gives meaning to the cleaned values: dates, identifiers,
// publication_type, embargo_info and access_type.

// dateFields lists the date fields in the order they are normalised.
var dateFields = [...]Field{DateFirstIssueOnline, DateLastIssueOnline, DateMonographPublishedPrint, DateMonographPublishedOnline}

// normalize applies the field rules to the values of one row (of line
// line), recording a problem for each change or warning. hash says whether
// the line has a "#" (a value may be a spreadsheet error).
func (r *Reader) normalize(v *[NumFields]string, line int, hash bool, p *rowProblems) {
	for f := PrintIdentifier; hash && f < NumFields; f++ {
		if s := v[f]; s != "" && s[0] == '#' && isSpreadsheetError(s) {
			p.add(Flagged, f, s, "cleared", "a spreadsheet error value, not data",
				f.String()+" "+quoteShort(s)+" is a spreadsheet error value: cleared")
			v[f] = ""
		}
	}
	for _, f := range dateFields {
		if v[f] == "" {
			continue
		}
		orig := v[f]
		res := r.dates.parse(f, orig)
		if res.how == "" {
			continue
		}
		switch {
		case res.invalid:
			msg := f.String() + " " + quoteShort(orig) + " is not a valid date (YYYY, YYYY-MM or YYYY-MM-DD with a year from 1000 to 2100): cleared"
			if res.reason == reasonWordDate {
				msg = f.String() + " " + quoteShort(orig) + " is not a valid date but a word: cleared"
			}
			p.add(Flagged, f, orig, "cleared", res.reason, msg)
		case res.normalized:
			p.add(Normalized, f, orig, "read as "+res.norm, res.reason, "")
		default:
			p.add(Repaired, f, orig, "read as "+res.norm, res.reason, f.String()+" "+quoteShort(orig)+" "+res.how+" "+res.norm)
		}
		v[f] = res.norm
	}
	if a, b := v[DateFirstIssueOnline], v[DateLastIssueOnline]; a != "" && b != "" && dateBefore(b, a) {
		p.add(Flagged, DateLastIssueOnline, b, "kept", "before date_first_issue_online "+a,
			"date_last_issue_online "+b+" is before date_first_issue_online "+a+" (kept)")
	}
	for _, f := range [...]Field{PrintIdentifier, OnlineIdentifier} {
		if v[f] != "" {
			normalizeIdentifier(f, &v[f], p)
		}
	}
	r.normalizePublicationType(v, line, p)
	if e := v[EmbargoInfo]; e != "" {
		if emb, ok := ParseEmbargo(e); !ok {
			p.add(Flagged, EmbargoInfo, e, "kept", "not KBART embargo notation",
				"embargo_info "+quoteShort(e)+" is not KBART embargo notation such as P1Y, R6M or R10Y;P30D (kept)")
		} else if c := emb.format(); c != e && c != "" {
			p.add(Normalized, EmbargoInfo, e, "read as "+c, "KBART embargo notation written in its canonical form", "")
			v[EmbargoInfo] = c
		}
	}
	if c := v[CoverageDepth]; c != "" {
		if l, ok := coverageDepth(c); ok && l != c {
			p.add(Normalized, CoverageDepth, c, "read as "+l, "coverage_depth in lower case", "")
			v[CoverageDepth] = l
		}
	}
	if a := v[AccessType]; a != "" {
		if u, ok := accessType(a); !ok {
			p.add(Flagged, AccessType, a, "kept", "not F (free) or P (paid)",
				"access_type "+quoteShort(a)+" is not F (free) or P (paid) (kept)")
		} else if u != a {
			if strings.HasSuffix(a, `\r`) || strings.HasSuffix(a, `\n`) {
				p.add(Repaired, AccessType, a, "read as "+u, "an escaped line ending after the code",
					"access_type "+quoteShort(a)+" read as "+u)
			} else {
				p.add(Normalized, AccessType, a, "read as "+u, "access_type written as its KBART code", "")
			}
			v[AccessType] = u
		}
	}
}

// coverageDepth returns the standard coverage_depth values (fulltext,
// abstracts, selected articles) in lower case, and whether a was one of
// them in any case.
func coverageDepth(c string) (string, bool) {
	for _, d := range [...]string{"fulltext", "abstracts", "selected articles"} {
		if strings.EqualFold(c, d) {
			return d, true
		}
	}
	return "", false
}

// accessType returns the KBART code for an access_type value: F, P, H or PF
// in any case, the words free and paid, and codes followed by a literal
// "\r" or "\n" (an escaped line ending left by an export script).
func accessType(a string) (string, bool) {
	for _, esc := range [...]string{`\r\n`, `\r`, `\n`} {
		a = strings.TrimSuffix(a, esc)
	}
	switch u := strings.ToUpper(strings.TrimSpace(a)); u {
	case "F", "P", "H", "PF":
		return u, true
	case "FREE":
		return "F", true
	case "PAID":
		return "P", true
	}
	return "", false
}

// normalizeIdentifier checks a print or online identifier: an ISSN without
// its hyphen (or with a lowercase x) is rewritten; a bad check digit or a
// value that is neither an ISSN nor an ISBN is kept with a note.
func normalizeIdentifier(f Field, pv *string, p *rowProblems) {
	v := *pv
	if len(v) > 1 && v[0] == '#' && looksLikeIdentifier(v[1:]) {
		// Some ezPAARSE files mark identifiers with a leading '#'.
		p.add(Repaired, f, v, "leading # removed", "an identifier marked with a leading #",
			f.String()+" "+quoteShort(v)+": leading # removed")
		v = trimValue(v[1:])
		*pv = v
	}
	switch {
	case kb.ISSNShaped(v):
		norm, ok := kb.NormalizeISSN(v)
		switch {
		case !ok:
			p.add(Flagged, f, v, "kept", "invalid ISSN check digit", f.String()+" "+quoteShort(v)+": invalid ISSN check digit (kept)")
		case norm == v:
		case strings.EqualFold(norm, v):
			p.add(Normalized, f, v, "read as "+norm, "ISSN check character x in lower case", "")
			*pv = norm
		default:
			p.add(Repaired, f, v, "read as "+norm, "ISSN not written 1234-567X", f.String()+" "+quoteShort(v)+" read as "+norm)
			*pv = norm
		}
	case kb.ISBNShaped(v):
		if _, ok := kb.NormalizeISBN(v); !ok {
			p.add(Flagged, f, v, "kept", "invalid ISBN check digit", f.String()+" "+quoteShort(v)+": invalid ISBN check digit (kept)")
		}
	default:
		p.add(Flagged, f, v, "kept", "neither an ISSN nor an ISBN", f.String()+" "+quoteShort(v)+" is neither an ISSN nor an ISBN (kept)")
	}
}

// looksLikeIdentifier reports whether v is ISSN- or ISBN-shaped.
func looksLikeIdentifier(v string) bool {
	return kb.ISSNShaped(v) || kb.ISBNShaped(v)
}

// normalizePublicationType lower-cases serial and monograph and infers
// the type for any other value, empty included. Inferring the type of a
// file without a publication_type column (KBART Phase I), or of an empty
// value from the identifiers, is a normalisation (the latter noted once for
// the file); a guess from date_first_issue_online, and replacing another
// value, are repairs.
func (r *Reader) normalizePublicationType(v *[NumFields]string, line int, p *rowProblems) {
	t := v[PublicationType]
	switch t {
	case "serial", "monograph":
		return
	}
	if strings.EqualFold(t, "serial") || strings.EqualFold(t, "monograph") {
		l, action := "serial", "read as serial"
		if len(t) != len(l) {
			l, action = "monograph", "read as monograph"
		}
		v[PublicationType] = l
		p.add(Normalized, PublicationType, t, action, "publication_type in lower case", "")
		return
	}
	inferred, why, sure := inferPublicationType(v)
	v[PublicationType] = inferred
	switch {
	case t == "" && r.m.owner[PublicationType] < 0:
		p.add(Normalized, PublicationType, t, "inferred "+inferred, "the file has no publication_type column: "+why, "")
	case t == "" && sure:
		if r.noted&notedPubType == 0 {
			r.noted |= notedPubType
			r.notes = append(r.notes, fmt.Sprintf("publication_type is empty (first on line %d): inferred from the identifiers, monograph for an ISBN and serial for an ISSN", line))
		}
		p.add(Normalized, PublicationType, t, "inferred "+inferred, "publication_type is empty: "+why, "")
	case t == "":
		p.add(Repaired, PublicationType, t, "inferred "+inferred, "publication_type is empty: "+why,
			"publication_type is empty: inferred "+inferred+" ("+why+")")
	default:
		p.add(Repaired, PublicationType, t, "read as "+inferred, "not serial or monograph: "+why,
			"publication_type "+quoteShort(t)+" is not serial or monograph: read as "+inferred+" ("+why+")")
	}
}

// inferPublicationType guesses serial or monograph from the identifiers,
// then from the presence of date_first_issue_online. sure is set when the
// identifiers decided.
func inferPublicationType(v *[NumFields]string) (typ, why string, sure bool) {
	var isbn, issn bool
	for _, f := range [...]Field{PrintIdentifier, OnlineIdentifier} {
		switch {
		case v[f] == "":
		case kb.ISSNShaped(v[f]):
			issn = true
		case kb.ISBNShaped(v[f]):
			isbn = true
		}
	}
	switch {
	case isbn && !issn:
		return "monograph", "ISBN identifier", true
	case issn && !isbn:
		return "serial", "ISSN identifier", true
	case v[DateFirstIssueOnline] != "":
		return "serial", "has date_first_issue_online", false
	}
	return "monograph", "no ISSN and no date_first_issue_online", false
}
