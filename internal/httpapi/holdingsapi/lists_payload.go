package holdingsapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// listPackagePayload is the body of PUT v2/{custid}/lists/{packageid} as
// clients of the hosted service write it: every member of their model, null
// where unset, the selection twice (isSelected and selected), the hidden
// flag as one entry per place (visibility), the operator flag under its
// specification name or the branded alias, and contentType as a number or
// a name. It is read into the v1 package body (packagePayload) and so makes
// the same update as PUT vendors/{vendorid}/packages/{packageid}.
type listPackagePayload struct {
	IsSelected               *bool                   `json:"isSelected"`
	Selected                 *bool                   `json:"selected"`
	Visibility               []listVisibilityPayload `json:"visibility"`
	IsFullPackage            *bool                   `json:"isFullPackage"`
	CustomCoverage           *coveragePayload        `json:"customCoverage"`
	Proxy                    *proxyPayload           `json:"proxy"`
	PackageToken             *tokenPayload           `json:"packageToken"`
	AllowOperatorToAddTitles *bool                   `json:"allowOperatorToAddTitles"`
	AllowEbscoToAddTitles    *bool                   `json:"allowEbscoToAddTitles"`
	PackageName              *string                 `json:"packageName" limit:"name"`
	ContentType              *listContentType        `json:"contentType"`
	CustomDescription        *string                 `json:"customDescription"`
	URL                      *string                 `json:"url" limit:"url"`
	CustomDisplayName        *string                 `json:"customDisplayName" limit:"name"`
	CustomAltNames           []json.RawMessage       `json:"customAltNames"`
	PackageFreeAccess        *bool                   `json:"packageFreeAccess"`
}

// listVisibilityPayload is whether a package is hidden in one place.
type listVisibilityPayload struct {
	Category *string `json:"category" limit:"id"`
	Hidden   *bool   `json:"hidden"`
	Reason   *string `json:"reason" limit:"short"`
}

// listContentType is a package content type sent as a number (1 to 9, the
// hosted service's clients' numbering) or as a name (ejournal, in any case).
type listContentType struct {
	raw string
}

// UnmarshalJSON takes a JSON number or string.
func (c *listContentType) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if unquoted, err := strconv.Unquote(s); err == nil {
		s = unquoted
	} else if _, err := strconv.Atoi(s); err != nil {
		return kb.Errorf(kb.CodeInvalid, "Attribute contentType must be an integer or a name, not %s.", kb.Abbrev(s, 40))
	}
	c.raw = s
	return nil
}

// kind reads the content type of a package: a type kbserver lacks (8
// streaming media, 9 mixed content) cannot be stored and is refused.
func (c *listContentType) kind() (kb.ContentType, error) {
	t, other, ok := kb.LookupHostedContentType(c.raw)
	switch {
	case other:
		return 0, invalid("Attribute contentType %q is a content type kbserver does not have: allowed are 1 to 7 (%s).",
			c.raw, strings.Join(kb.ContentTypeNames()[1:], ", "))
	case !ok || !t.ValidForPackage():
		return 0, invalid("Attribute contentType has an invalid value %q: allowed are 1 to 7 or a name (%s).",
			kb.Abbrev(c.raw, 40), strings.Join(kb.ContentTypeNames()[1:], ", "))
	}
	return t, nil
}

// update checks the body and reads it as the v1 package update.
func (p *listPackagePayload) update() (kb.PackageUpdate, error) {
	if err := p.checkUnkept(); err != nil {
		return kb.PackageUpdate{}, err
	}
	selected, err := sameBool("isSelected", p.IsSelected, "selected", p.Selected)
	if err != nil {
		return kb.PackageUpdate{}, err
	}
	allow, err := sameBool("allowOperatorToAddTitles", p.AllowOperatorToAddTitles, "allowEbscoToAddTitles", p.AllowEbscoToAddTitles)
	if err != nil {
		return kb.PackageUpdate{}, err
	}
	hidden, err := p.hidden()
	if err != nil {
		return kb.PackageUpdate{}, err
	}
	v1 := packagePayload{
		IsSelected:               selected,
		IsFullPackage:            p.IsFullPackage,
		IsHidden:                 hidden,
		CustomCoverage:           p.CustomCoverage,
		Proxy:                    p.Proxy,
		AllowOperatorToAddTitles: allow,
		PackageToken:             p.PackageToken,
		PackageName:              p.PackageName,
	}
	if p.ContentType != nil {
		ct, err := p.ContentType.kind()
		if err != nil {
			return kb.PackageUpdate{}, err
		}
		n := int(ct)
		v1.ContentType = &n
	}
	return v1.update()
}

// hidden reads the visibility entries into the one hidden flag kbserver
// keeps for PF, FTF and MARC (kb.OneHiddenFlag); nil when none is given.
func (p *listPackagePayload) hidden() (*bool, error) {
	values := make([]*bool, len(p.Visibility))
	for i, v := range p.Visibility {
		if _, ok := kb.LookupVisibilityCategory(str(v.Category)); !ok {
			return nil, invalid("Attribute visibility[%d].category has an invalid value %q: allowed values are %s.",
				i, kb.Abbrev(str(v.Category), 40), strings.Join(kb.VisibilityCategories(), ", "))
		}
		values[i] = v.Hidden
	}
	hidden, given, err := kb.OneHiddenFlag(values)
	if errors.Is(err, kb.ErrHiddenDisagree) {
		return nil, invalid("Attribute visibility gives different hidden values: kbserver keeps one hidden flag for %s alike, so send the same value for each.",
			strings.Join(kb.VisibilityCategories(), ", "))
	}
	if !given {
		return nil, nil
	}
	return &hidden, nil
}

// checkUnkept refuses a value for a member kbserver does not keep: null,
// an empty string or an empty list is taken as not given, and
// packageFreeAccess false is the value every package has.
func (p *listPackagePayload) checkUnkept() error {
	for _, m := range []struct {
		name string
		set  bool
	}{
		{"customDescription", trimmed(p.CustomDescription) != ""},
		{"url", trimmed(p.URL) != ""},
		{"customDisplayName", trimmed(p.CustomDisplayName) != ""},
		{"customAltNames", len(p.CustomAltNames) > 0},
		{"packageFreeAccess", p.PackageFreeAccess != nil && *p.PackageFreeAccess != kb.PackageFreeAccess},
	} {
		if m.set {
			return invalid("Attribute %s is not kept by kbserver: send null (or leave it out).", m.name)
		}
	}
	return nil
}

// sameBool reads a boolean sent under two names: either may be left out or
// null, and both given must agree.
func sameBool(name string, v *bool, alias string, a *bool) (*bool, error) {
	switch {
	case v == nil:
		return a, nil
	case a != nil && *a != *v:
		return nil, invalid("Attributes %s and %s are one value under two names and must agree (got %t and %t).", name, alias, *v, *a)
	}
	return v, nil
}
