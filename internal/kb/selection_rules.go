package kb

import "strings"

// This file holds the rules of a customer's selection and customisation of
// a package or resource that can be decided from the request alone. They
// are pure: callers word a violation for their own clients (the HTTP API
// names the JSON member).

// SelectionAllowed reports whether a package or resource may be in the
// state selected, hidden: only a selected one can be hidden.
func SelectionAllowed(selected, hidden bool) bool { return selected || !hidden }

// The violations CustomEmbargo reports.
var (
	ErrEmbargoValue = Errorf(CodeInvalid, "An embargo value must not be negative.")
	ErrEmbargoUnit  = Errorf(CodeInvalid, "An embargo unit must be Days, Weeks, Months or Years.")
)

// CustomEmbargo applies the rules of a custom embargo period given as a
// unit name and a value. The value must not be negative (ErrEmbargoValue).
// A unit that is given must be Days, Weeks, Months or Years in any case
// (ErrEmbargoUnit), and a value above 0 needs one. A value of 0 is no
// embargo (the zero Embargo, as StoredEmbargo keeps it), whatever the unit.
func CustomEmbargo(unit string, value int) (Embargo, error) {
	if value < 0 {
		return Embargo{}, ErrEmbargoValue
	}
	if strings.TrimSpace(unit) == "" && value == 0 {
		return Embargo{}, nil
	}
	u, ok := lookupEmbargoUnit(unit)
	if !ok {
		return Embargo{}, ErrEmbargoUnit
	}
	return StoredEmbargo(Embargo{Unit: u, Value: value}), nil
}
