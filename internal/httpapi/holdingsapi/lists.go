package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The hosted service's v2 package operations, under
// /rm/rmaccounts/v2/{custid}: the package lists (lists, vendors/{vendorid}/
// lists) and one package by its id (lists/{packageid}, GET and PUT). The
// specification does not describe them; clients of the hosted service read
// and write packages only through them. They read and write through the
// same store methods as the v1 package operations.

// lists answers GET v2/{custid}/lists.
func (h *handlers) lists(w http.ResponseWriter, r *http.Request) error {
	return h.writeListPackages(w, r, 0)
}

// vendorLists answers GET v2/{custid}/vendors/{vendorid}/lists.
func (h *handlers) vendorLists(w http.ResponseWriter, r *http.Request) error {
	vendorID, err := web.PathID(r, "vendorid")
	if err != nil {
		return err
	}
	return h.writeListPackages(w, r, vendorID)
}

// writeListPackages answers a v2 package list, of one vendor when vendorID
// is not 0; an unknown vendor is "Vendor not found".
func (h *handlers) writeListPackages(w http.ResponseWriter, r *http.Request, vendorID int64) error {
	q, err := readListQuery(web.NewQuery(r))
	if err != nil {
		return err
	}
	q.VendorID = vendorID
	custID := r.PathValue("custid")
	l := kb.PackageList{Packages: []kb.Package{}}
	if !q.empty {
		if l, err = h.finder.Packages(r.Context(), custID, q.PackageQuery); err != nil {
			return fmt.Errorf("list packages of %s (vendor %d): %w", custID, vendorID, err)
		}
	}
	if vendorID != 0 && l.Total == 0 {
		if _, err := h.store.Vendor(r.Context(), custID, vendorID); err != nil {
			return fmt.Errorf("read vendor %d of %s: %w", vendorID, custID, err)
		}
	}
	return web.WriteJSON(w, http.StatusOK, toListPackages(l, web.WireOf(r).HostedNames()))
}

// list answers GET v2/{custid}/lists/{packageid}.
func (h *handlers) list(w http.ResponseWriter, r *http.Request) error {
	packageID, err := web.PathID(r, "packageid")
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	p, err := h.store.PackageByID(r.Context(), custID, packageID)
	if err != nil {
		return fmt.Errorf("read package %d of %s: %w", packageID, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toPackageData(p, web.WireOf(r).HostedNames()))
}

// updateList answers PUT v2/{custid}/lists/{packageid}: the update
// of PUT vendors/{vendorid}/packages/{packageid}, the vendor being the
// package's. Deselecting a custom package deletes it.
func (h *handlers) updateList(w http.ResponseWriter, r *http.Request) error {
	packageID, err := web.PathID(r, "packageid")
	if err != nil {
		return err
	}
	u, err := decode(r, (*listPackagePayload).update)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	p, err := h.store.PackageByID(r.Context(), custID, packageID)
	if err != nil {
		return fmt.Errorf("read package %d of %s: %w", packageID, custID, err)
	}
	if err := h.store.UpdatePackage(r.Context(), custID, p.VendorID, packageID, u); err != nil {
		return fmt.Errorf("update package %d/%d of %s: %w", p.VendorID, packageID, custID, err)
	}
	return noContent(w)
}
