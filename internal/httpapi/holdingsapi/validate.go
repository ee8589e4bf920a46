package holdingsapi

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file reads the members that several request bodies share into kb
// types. Every rule that can be checked from a body alone is checked here,
// before the store is called; the rules themselves are kb's (the
// *_rules.go files), and this file words their violations for the JSON
// member that broke them. Messages follow the hosted service where its
// recordings show one: a missing attribute is named as it names it
// ("Attribute IsSelected is missing."); any other message names the member
// by its JSON path.

// missing is the error for a required attribute the body lacks.
func missing(name string) error {
	return kb.Errorf(kb.CodeMissing, "Attribute %s is missing.", name)
}

// invalid is the error for a member with a value that is not allowed.
func invalid(format string, args ...any) error {
	return kb.Errorf(kb.CodeInvalid, format, args...)
}

// str returns *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// trimmed returns *p without surrounding white space, or "" for nil.
func trimmed(p *string) string { return strings.TrimSpace(str(p)) }

// isTrue reports whether p is a true boolean.
func isTrue(p *bool) bool { return p != nil && *p }

// alias merges a boolean member with its alias (a branded name, or the
// second key a Java client writes for a boolean): either alone is taken,
// both must agree.
func alias(name string, v *bool, aliasName string, a *bool) (*bool, error) {
	switch {
	case a == nil:
		return v, nil
	case v == nil:
		return a, nil
	case *v != *a:
		return nil, invalid("Attributes %s and %s name the same setting and must agree: %t and %t.", name, aliasName, *v, *a)
	}
	return v, nil
}

// notKept refuses a member that kbserver does not keep unless it is empty
// (null, "", false or []): clients of the hosted service send such members
// empty, and a value would be silently lost.
func notKept(name string, empty bool) error {
	if empty {
		return nil
	}
	return invalid("Attribute %s is not kept by this server: send it null or empty.", name)
}

// selection reads the isSelected that every package and title PUT requires,
// and the isHidden that may come with it: hiding needs isSelected true in
// the same body (kb.SelectionAllowed).
func selection(isSelected, isHidden *bool) (selected, hidden bool, err error) {
	if isSelected == nil {
		return false, false, missing("IsSelected")
	}
	if !kb.SelectionAllowed(*isSelected, isTrue(isHidden)) {
		return false, false, invalid("Attribute isHidden can be true only with isSelected true: a resource or package that is not selected cannot be hidden.")
	}
	return *isSelected, isTrue(isHidden), nil
}

// coverage reads one custom coverage range of a package: both dates empty
// (or no range at all) is none; otherwise the range must be valid
// (kb.CheckCoverageList).
func coverage(p *coveragePayload) (kb.Coverage, error) {
	if p == nil {
		return kb.Coverage{}, nil
	}
	c := kb.Coverage{Begin: trimmed(p.BeginCoverage), End: trimmed(p.EndCoverage)}
	if c.Begin == "" && c.End == "" {
		return kb.Coverage{}, nil
	}
	return c, kb.CheckCoverageList([]kb.Coverage{c})
}

// coverageList reads custom coverage ranges of a title: dates yyyy-mm-dd,
// an empty end "to the present", newest first (kb.CheckCoverageList).
func coverageList(ps []coveragePayload) ([]kb.Coverage, error) {
	out := make([]kb.Coverage, len(ps))
	for i, p := range ps {
		out[i] = kb.Coverage{Begin: trimmed(p.BeginCoverage), End: trimmed(p.EndCoverage)}
	}
	return out, kb.CheckCoverageList(out)
}

// embargo reads a custom embargo period. A missing period, a null or zero
// value, means no embargo; a unit that is given must be valid all the same
// (kb.CustomEmbargo).
func embargo(p *embargoPayload) (kb.Embargo, error) {
	if p == nil {
		return kb.Embargo{}, nil
	}
	value := 0
	if p.EmbargoValue != nil {
		value = *p.EmbargoValue
	}
	e, err := kb.CustomEmbargo(trimmed(p.EmbargoUnit), value)
	switch {
	case errors.Is(err, kb.ErrEmbargoValue):
		return kb.Embargo{}, invalid("Attribute customEmbargoPeriod.embargoValue must not be negative.")
	case errors.Is(err, kb.ErrEmbargoUnit):
		return kb.Embargo{}, invalid("Parameter customEmbargoPeriod.embargoUnit must be one of (days, weeks, months, years).")
	}
	return e, err
}

// proxyRef reads a proxy setting of a package or resource: nil means
// inherited (inherited true, or no proxy id). Whether the id names one of
// the customer's proxies is the store's check ("Invalid Proxy ID").
func proxyRef(p *proxyPayload) *kb.ProxyRef {
	if p == nil || isTrue(p.Inherited) || trimmed(p.ID) == "" {
		return nil
	}
	return &kb.ProxyRef{ID: trimmed(p.ID)}
}

// tokenValue returns the value of a token, nil when none is sent.
func tokenValue(p *tokenPayload) *string {
	if p == nil {
		return nil
	}
	return p.Value
}

// contentType reads a package content type, 1 to 7
// (kb.ContentType.ValidForPackage).
func contentType(n int) (kb.ContentType, error) {
	if c := kb.ContentType(n); c.ValidForPackage() {
		return c, nil
	}
	return 0, invalid("Attribute contentType must be an integer from 1 to 7 (1 aggregated full text, 2 abstract and index, 3 ebook, 4 e-journal, 5 print, 6 unknown, 7 online reference), not %d.", n)
}

// pubType reads a publication type from its name, in any case
// (kb.LookupPubType).
func pubType(s string) (kb.ResourceType, error) {
	t, ok := kb.LookupPubType(s)
	if !ok {
		return 0, invalid("Attribute pubType has an invalid value %q: allowed values are %s.", s, strings.Join(kb.PubTypeNames(), ", "))
	}
	return t, nil
}

// contributors reads a contributor list; badType is the error for a type
// other than author, editor or illustrator (kb.LookupContributorType).
func contributors(ps []contributorPayload, badType error) ([]kb.Contributor, error) {
	if ps == nil {
		return nil, nil // not given: an update keeps the title's contributors
	}
	out := make([]kb.Contributor, len(ps))
	for i, p := range ps {
		typ, ok := kb.LookupContributorType(trimmed(p.Type))
		if !ok {
			return nil, badType
		}
		name := trimmed(p.Contributor)
		if name == "" {
			return nil, missing(fmt.Sprintf("contributorsList[%d].contributor", i))
		}
		out[i] = kb.Contributor{Type: typ, Name: name}
	}
	return out, nil
}

// identifiers reads an identifier list: type 0 ISSN or 1 ISBN (0 when
// absent), subtype 1 print or 2 online (empty when absent); see
// kb.IdentifierType.Valid and kb.IdentifierSubtype.Valid.
func identifiers(ps []identifierPayload) ([]kb.Identifier, error) {
	if ps == nil {
		return nil, nil // not given: an update keeps the title's identifiers
	}
	out := make([]kb.Identifier, len(ps))
	for i, p := range ps {
		id := trimmed(p.ID)
		if id == "" {
			return nil, missing(fmt.Sprintf("identifiersList[%d].id", i))
		}
		ident := kb.Identifier{ID: id}
		if p.Type != nil {
			ident.Type = kb.IdentifierType(*p.Type)
			if !ident.Type.Valid() {
				return nil, invalid("Attribute identifiersList[%d].type must be 0 (ISSN) or 1 (ISBN), not %d.", i, *p.Type)
			}
		}
		if p.Subtype != nil {
			ident.Subtype = kb.IdentifierSubtype(*p.Subtype)
			if !ident.Subtype.Valid() {
				return nil, invalid("Attribute identifiersList[%d].subtype must be 1 (print) or 2 (online), not %d.", i, *p.Subtype)
			}
		}
		out[i] = ident
	}
	return out, nil
}

// requireNameAndType checks the two title fields a custom title needs
// (kb.CheckCustomTitle).
func (p *titleFieldsPayload) requireNameAndType() error {
	err := kb.CheckCustomTitle(str(p.TitleName), str(p.PubType))
	switch {
	case errors.Is(err, kb.ErrTitleNameMissing):
		return missing("TitleName")
	case errors.Is(err, kb.ErrPubTypeMissing):
		return missing("PubType")
	}
	return err
}

// given reports whether the body holds any title field.
func (p *titleFieldsPayload) given() bool {
	return p.TitleName != nil || p.PubType != nil || p.PublisherName != nil || p.IsPeerReviewed != nil ||
		p.Edition != nil || p.Description != nil || p.URL != nil ||
		p.ContributorsList != nil || p.ContributorIDList != nil || p.IdentifiersList != nil
}

// fields reads the title fields; the name and type are checked when they
// are given (requireNameAndType checks that they are). badContributor is
// the error for a contributor type that is not allowed.
func (p *titleFieldsPayload) fields(badContributor error) (kb.TitleFields, error) {
	peer, err := alias("isPeerReviewed", p.IsPeerReviewed, "peerReviewed", p.PeerReviewed)
	if err != nil {
		return kb.TitleFields{}, err
	}
	p.IsPeerReviewed = peer
	f := kb.TitleFields{
		Name:         trimmed(p.TitleName),
		Publisher:    trimmed(p.PublisherName),
		PeerReviewed: isTrue(p.IsPeerReviewed),
		Edition:      trimmed(p.Edition),
		Description:  trimmed(p.Description),
		URL:          trimmed(p.URL),
	}
	if trimmed(p.PubType) != "" {
		if f.PubType, err = pubType(*p.PubType); err != nil {
			return f, err
		}
	}
	list := p.ContributorsList
	if p.ContributorIDList != nil {
		if list != nil {
			return f, invalid("Attributes contributorsList and contributorIdList are two names of one list: send one of them.")
		}
		list = p.ContributorIDList
	}
	if f.Contributors, err = contributors(list, badContributor); err != nil {
		return f, err
	}
	if f.Identifiers, err = identifiers(p.IdentifiersList); err != nil {
		return f, err
	}
	return f, nil
}

// customisation is a resource's customisation read from a body.
type customisation struct {
	Coverage    []kb.Coverage
	Statement   string
	Embargo     kb.Embargo
	UserDefined [5]string
}

// read checks and reads the customisation members.
func (p *customisationPayload) read() (customisation, error) {
	var c customisation
	var err error
	if c.Coverage, err = coverageList(p.CustomCoverageList); err != nil {
		return c, err
	}
	if c.Embargo, err = embargo(p.CustomEmbargoPeriod); err != nil {
		return c, err
	}
	c.Statement = strings.TrimSpace(str(p.CoverageStatement))
	c.UserDefined = [5]string{
		str(p.UserDefinedField1), str(p.UserDefinedField2), str(p.UserDefinedField3),
		str(p.UserDefinedField4), str(p.UserDefinedField5),
	}
	return c, nil
}
