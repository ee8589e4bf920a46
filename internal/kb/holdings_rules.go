package kb

import "strings"

// The rules of a customer's holdings writes that do not need the store:
// the store applies them to what it reads in its transaction.

// CheckTitleSelection applies the Complete package rule to a change of a
// title's selection in a package (packageID, of type typ, selected whole
// by the customer or not): the titles of a Complete package are selected
// and deselected with the package only, so selecting one in a package not
// selected, or deselecting one in a package selected, is CodeNotAllowed.
func CheckTitleSelection(packageID int64, typ PackageType, packageSelected, selectTitle bool) error {
	if typ != PackageComplete {
		return nil
	}
	switch {
	case selectTitle && !packageSelected:
		return Errorf(CodeNotAllowed, "Package %d is a Complete package: its titles are selected with the package.", packageID)
	case !selectTitle && packageSelected:
		return Errorf(CodeNotAllowed, "Package %d is a Complete package: its titles are deselected with the package.", packageID)
	}
	return nil
}

// CheckNewCustomTitle checks a custom title to create in a package:
// only a custom package takes one (CodeNotAllowed), and it needs a name
// (CodeMissing).
func CheckNewCustomTitle(customPackage bool, name string) error {
	if !customPackage {
		return Errorf(CodeNotAllowed, "Custom Title can not be added to the provided package")
	}
	if strings.TrimSpace(name) == "" {
		return Errorf(CodeMissing, "Attribute TitleName is missing.")
	}
	return CheckText("A title name", name, LimitName)
}

// CustomPackageName returns the name of a custom package to create,
// trimmed; CodeMissing when it is empty.
func CustomPackageName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", Errorf(CodeMissing, "Attribute PackageName is missing.")
	}
	return name, CheckText("A package name", name, LimitName)
}

// CheckTitleFields checks the fields of a custom title against their
// limits: the name and publisher, which the stores index folded
// (LimitName), the URL, edition, description, contributors and
// identifiers.
func CheckTitleFields(f *TitleFields) error {
	type check struct {
		what  string
		s     string
		limit TextLimit
	}
	checks := []check{
		{"A title name", f.Name, LimitName},
		{"A publisher name", f.Publisher, LimitName},
		{"A title URL", f.URL, LimitURL},
		{"An edition", f.Edition, LimitShort},
		{"A title description", f.Description, LimitText},
	}
	for _, c := range f.Contributors {
		checks = append(checks, check{"A contributor name", c.Name, LimitShort})
	}
	for _, i := range f.Identifiers {
		checks = append(checks, check{"An identifier", i.ID, LimitID})
	}
	for _, c := range checks {
		if err := CheckText(c.what, c.s, c.limit); err != nil {
			return err
		}
	}
	return nil
}

// StoredContentType is the content type a package is created with:
// ContentAll (which only a search filter means) is stored as
// ContentUnknown.
func StoredContentType(ct ContentType) ContentType {
	if ct == ContentAll {
		return ContentUnknown
	}
	return ct
}

// CheckPackageCoverage checks a package's custom coverage: dates
// yyyy-mm-dd, begin before end; an empty begin and end mean none.
func CheckPackageCoverage(c Coverage) error {
	if c.Begin == "" && c.End == "" {
		return nil
	}
	return CheckCoverageList([]Coverage{c})
}

// StoredEmbargo returns the custom embargo a customer's setting stores:
// none unless both the unit and a positive value are set.
func StoredEmbargo(e Embargo) Embargo {
	if e.Unit == EmbargoNone || e.Value <= 0 {
		return Embargo{}
	}
	return e
}

// EffectiveProxy is the proxy of an object whose own setting is own when
// set is true (otherwise inherited) and whose ancestors' settings are the
// explicit ones in inherited, nearest first, then the root proxy (rule 4
// of the specification: package, then vendor, then root).
func EffectiveProxy(own string, set bool, inherited ...string) ProxyRef {
	if set {
		return ProxyRef{ID: own}
	}
	for _, id := range inherited {
		if id != "" {
			return ProxyRef{ID: id, Inherited: true}
		}
	}
	return ProxyRef{ID: NoProxyID, Inherited: true}
}

// HiddenBy is the visibility of a package or resource the customer has
// hidden or not.
func HiddenBy(hidden bool) Visibility {
	if hidden {
		return Visibility{Hidden: true, Reason: ReasonHiddenByCustomer}
	}
	return Visibility{}
}
