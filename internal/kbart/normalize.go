package kbart

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file gives meaning to the cleaned values: dates, identifiers,
// publication_type, embargo_info and access_type.

// dateFields lists the date fields in the order they are normalised.
var dateFields = [...]Field{DateFirstIssueOnline, DateLastIssueOnline, DateMonographPublishedPrint, DateMonographPublishedOnline}

// normalize applies the field rules to the values of one row, appending a
// repair note for each change or warning.
func (r *Reader) normalize(v *[NumFields]string, rep []string) []string {
	for _, f := range dateFields {
		if v[f] == "" {
			continue
		}
		res := r.dates.parse(f, v[f])
		if res.how == "" {
			continue
		}
		switch {
		case res.invalid:
			rep = append(rep, f.String()+" "+quoteShort(v[f])+" is not a valid date (YYYY, YYYY-MM or YYYY-MM-DD with a year from 1000 to 2100): cleared")
		default:
			rep = append(rep, f.String()+" "+quoteShort(v[f])+" "+res.how+" "+res.norm)
		}
		v[f] = res.norm
	}
	if a, b := v[DateFirstIssueOnline], v[DateLastIssueOnline]; a != "" && b != "" && dateBefore(b, a) {
		rep = append(rep, "date_last_issue_online "+b+" is before date_first_issue_online "+a+" (kept)")
	}
	for _, f := range [...]Field{PrintIdentifier, OnlineIdentifier} {
		if v[f] != "" {
			rep = normalizeIdentifier(f, &v[f], rep)
		}
	}
	rep = normalizePublicationType(v, rep)
	if e := v[EmbargoInfo]; e != "" {
		if emb, ok := ParseEmbargo(e); !ok {
			rep = append(rep, "embargo_info "+quoteShort(e)+" is not KBART embargo notation such as P1Y, R6M or R10Y;P30D (kept)")
		} else if c := emb.format(); c != e && c != "" {
			rep = append(rep, "embargo_info "+quoteShort(e)+" read as "+c)
			v[EmbargoInfo] = c
		}
	}
	if a := v[AccessType]; a != "" {
		if u, ok := accessType(a); !ok {
			rep = append(rep, "access_type "+quoteShort(a)+" is not F (free) or P (paid) (kept)")
		} else if u != a {
			rep = append(rep, "access_type "+quoteShort(a)+" read as "+u)
			v[AccessType] = u
		}
	}
	return rep
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
func normalizeIdentifier(f Field, p *string, rep []string) []string {
	v := *p
	if len(v) > 1 && v[0] == '#' && looksLikeIdentifier(v[1:]) {
		// Some ezPAARSE files mark identifiers with a leading '#'.
		rep = append(rep, f.String()+" "+quoteShort(v)+": leading # removed")
		v = trimValue(v[1:])
		*p = v
	}
	switch {
	case kb.ISSNShaped(v):
		norm, ok := kb.NormalizeISSN(v)
		switch {
		case !ok:
			rep = append(rep, f.String()+" "+quoteShort(v)+": invalid ISSN check digit (kept)")
		case norm != v:
			rep = append(rep, f.String()+" "+quoteShort(v)+" read as "+norm)
			*p = norm
		}
	case kb.ISBNShaped(v):
		if _, ok := kb.NormalizeISBN(v); !ok {
			rep = append(rep, f.String()+" "+quoteShort(v)+": invalid ISBN check digit (kept)")
		}
	default:
		rep = append(rep, f.String()+" "+quoteShort(v)+" is neither an ISSN nor an ISBN (kept)")
	}
	return rep
}

// looksLikeIdentifier reports whether v is ISSN- or ISBN-shaped.
func looksLikeIdentifier(v string) bool {
	return kb.ISSNShaped(v) || kb.ISBNShaped(v)
}

// normalizePublicationType lower-cases serial and monograph and infers
// the type for any other value, empty included.
func normalizePublicationType(v *[NumFields]string, rep []string) []string {
	t := v[PublicationType]
	switch t {
	case "serial", "monograph":
		return rep
	}
	if strings.EqualFold(t, "serial") || strings.EqualFold(t, "monograph") {
		l := strings.ToLower(t)
		v[PublicationType] = l
		return append(rep, "publication_type "+quoteShort(t)+" read as "+l)
	}
	inferred, why := inferPublicationType(v)
	v[PublicationType] = inferred
	if t == "" {
		return append(rep, "publication_type is empty: inferred "+inferred+" ("+why+")")
	}
	return append(rep, "publication_type "+quoteShort(t)+" is not serial or monograph: read as "+inferred+" ("+why+")")
}

// inferPublicationType guesses serial or monograph from the identifiers,
// then from the presence of date_first_issue_online.
func inferPublicationType(v *[NumFields]string) (string, string) {
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
		return "monograph", "ISBN identifier"
	case issn && !isbn:
		return "serial", "ISSN identifier"
	case v[DateFirstIssueOnline] != "":
		return "serial", "has date_first_issue_online"
	}
	return "monograph", "no ISSN and no date_first_issue_online"
}
