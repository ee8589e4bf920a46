package kbsql

import "github.com/kbserver/kbserver/internal/kb"

// WritePackage is what a holdings write needs to know of a package, as
// both stores read it before writing.
type WritePackage struct {
	ID         int64
	VendorID   int64
	Custom     bool // a custom package of the customer
	Type       kb.PackageType
	Tokenable  bool // the package has a token to fill in
	Selected   bool // the customer selected it (package level)
	TitleCount int
}
