package kbsql

import (
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// CheckTitleSelection applies the Complete package rule to a change of a
// title's selection in a package (packageID, of type typ, selected whole
// by the customer or not): the titles of a Complete package are selected
// and deselected with the package only, so selecting one in a package not
// selected, or deselecting one in a package selected, is CodeNotAllowed.
func CheckTitleSelection(packageID int64, typ kb.PackageType, packageSelected, selectTitle bool) error {
	if typ != kb.PackageComplete {
		return nil
	}
	switch {
	case selectTitle && !packageSelected:
		return kb.Errorf(kb.CodeNotAllowed, "Package %d is a Complete package: its titles are selected with the package.", packageID)
	case !selectTitle && packageSelected:
		return kb.Errorf(kb.CodeNotAllowed, "Package %d is a Complete package: its titles are deselected with the package.", packageID)
	}
	return nil
}

// CheckNewCustomTitle checks a custom title to create in a package:
// only a custom package takes one (CodeNotAllowed), and it needs a name
// (CodeMissing).
func CheckNewCustomTitle(customPackage bool, name string) error {
	if !customPackage {
		return kb.Errorf(kb.CodeNotAllowed, "Custom Title can not be added to the provided package")
	}
	if strings.TrimSpace(name) == "" {
		return kb.Errorf(kb.CodeMissing, "Attribute TitleName is missing.")
	}
	return nil
}
