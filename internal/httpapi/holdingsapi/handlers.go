package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/answercache"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// handlers serves the holdings service: the read side here, the write side
// in write*.go. Every handler runs after the API-key check, so the custid
// path parameter is the caller's.
type handlers struct {
	store   Store
	finder  Finder
	answers *answercache.Cache // nil: every answer is built (cached.go)
}

func (h *handlers) root(w http.ResponseWriter, r *http.Request) error {
	custID := r.PathValue("custid")
	s, err := h.store.Root(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("read root settings of %s: %w", custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toRoot(s))
}

func (h *handlers) proxies(w http.ResponseWriter, r *http.Request) error {
	custID := r.PathValue("custid")
	ps, err := h.store.Proxies(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("list proxies of %s: %w", custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, web.WireOf(r).List("proxies", toProxyList(ps)))
}

func (h *handlers) vendors(w http.ResponseWriter, r *http.Request) error {
	q, err := vendorQuery(web.NewQuery(r))
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	l, err := h.finder.Vendors(r.Context(), custID, q)
	if err != nil {
		return fmt.Errorf("list vendors of %s: %w", custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toVendorList(l))
}

func (h *handlers) vendor(w http.ResponseWriter, r *http.Request) error {
	vendorID, err := web.PathID(r, "vendorid")
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	v, err := h.store.Vendor(r.Context(), custID, vendorID)
	if err != nil {
		return fmt.Errorf("read vendor %d of %s: %w", vendorID, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toVendorDetail(v))
}

func (h *handlers) packages(w http.ResponseWriter, r *http.Request) error {
	return h.listPackages(w, r, 0)
}

func (h *handlers) vendorPackages(w http.ResponseWriter, r *http.Request) error {
	vendorID, err := web.PathID(r, "vendorid")
	if err != nil {
		return err
	}
	return h.listPackages(w, r, vendorID)
}

// listPackages answers a package list, of one vendor when vendorID is not 0.
// An empty list of an unknown vendor is "Vendor not found".
func (h *handlers) listPackages(w http.ResponseWriter, r *http.Request, vendorID int64) error {
	q, err := packageQuery(web.NewQuery(r))
	if err != nil {
		return err
	}
	q.VendorID = vendorID
	custID := r.PathValue("custid")
	l, err := h.finder.Packages(r.Context(), custID, q)
	if err != nil {
		return fmt.Errorf("list packages of %s (vendor %d): %w", custID, vendorID, err)
	}
	if vendorID != 0 && l.Total == 0 {
		// The store's Packages does not check the vendor (an unknown
		// vendor has no packages), so an empty list asks whether the
		// vendor exists.
		if _, err := h.store.Vendor(r.Context(), custID, vendorID); err != nil {
			return fmt.Errorf("read vendor %d of %s: %w", vendorID, custID, err)
		}
	}
	return web.WriteJSON(w, http.StatusOK, toPackageList(l))
}

func (h *handlers) pkg(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, err := packagePath(r)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	p, err := h.store.Package(r.Context(), custID, vendorID, packageID)
	if err != nil {
		return fmt.Errorf("read package %d/%d of %s: %w", vendorID, packageID, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toPackageDetail(p))
}

func (h *handlers) titles(w http.ResponseWriter, r *http.Request) error {
	q, err := titleQuery(web.NewQuery(r))
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	l, err := h.finder.Titles(r.Context(), custID, q)
	if err != nil {
		return fmt.Errorf("list titles of %s: %w", custID, err)
	}
	return writeTitleList(w, l, titleListForm)
}

// packageTitles answers the title list of one package. The store answers
// "Package not found" ("Vendor not found") for an unknown package (vendor).
func (h *handlers) packageTitles(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, err := packagePath(r)
	if err != nil {
		return err
	}
	q, err := titleQuery(web.NewQuery(r))
	if err != nil {
		return err
	}
	q.VendorID, q.PackageID = vendorID, packageID
	custID := r.PathValue("custid")
	l, err := h.finder.Titles(r.Context(), custID, q)
	if err != nil {
		return fmt.Errorf("list titles of package %d/%d of %s: %w", vendorID, packageID, custID, err)
	}
	return writeTitleList(w, l, packageTitleListForm)
}

func (h *handlers) title(w http.ResponseWriter, r *http.Request) error {
	titleID, err := web.PathID(r, "kbid")
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	t, err := h.store.Title(r.Context(), custID, titleID)
	if err != nil {
		return fmt.Errorf("read title %d of %s: %w", titleID, custID, err)
	}
	return h.writeTitle(w, r, t)
}

func (h *handlers) resource(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, titleID, err := resourcePath(r)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	t, err := h.store.Resource(r.Context(), custID, vendorID, packageID, titleID)
	if err != nil {
		return fmt.Errorf("read resource %d/%d/%d of %s: %w", vendorID, packageID, titleID, custID, err)
	}
	return h.writeTitle(w, r, t)
}

// writeTitle answers title or resource details: the resources' proxies
// carry the addresses the customer's proxies make of their URLs.
func (h *handlers) writeTitle(w http.ResponseWriter, r *http.Request, t kb.Title) error {
	custID := r.PathValue("custid")
	ps, err := h.store.Proxies(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("list proxies of %s: %w", custID, err)
	}
	return writeTitle(w, t, newProxyMasks(ps))
}

// packagePath reads the vendorid and packageid path parameters.
func packagePath(r *http.Request) (vendorID, packageID int64, err error) {
	if vendorID, err = web.PathID(r, "vendorid"); err != nil {
		return 0, 0, err
	}
	if packageID, err = web.PathID(r, "packageid"); err != nil {
		return 0, 0, err
	}
	return vendorID, packageID, nil
}

// resourcePath reads the vendorid, packageid and kbid path parameters.
func resourcePath(r *http.Request) (vendorID, packageID, titleID int64, err error) {
	if vendorID, packageID, err = packagePath(r); err != nil {
		return 0, 0, 0, err
	}
	if titleID, err = web.PathID(r, "kbid"); err != nil {
		return 0, 0, 0, err
	}
	return vendorID, packageID, titleID, nil
}

// vendorQuery reads the parameters of the vendor list.
func vendorQuery(p web.Query) (kb.VendorQuery, error) {
	var q kb.VendorQuery
	var err error
	if q.Search, err = web.Search(p, "search"); err != nil {
		return q, err
	}
	if q.OrderBy, err = web.OrderBy(p, "vendorname"); err != nil {
		return q, err
	}
	if q.Page, err = web.Page(p, kb.DefaultCount); err != nil {
		return q, err
	}
	return q, nil
}

// packageQuery reads the parameters of the package lists.
func packageQuery(p web.Query) (kb.PackageQuery, error) {
	var q kb.PackageQuery
	var err error
	if q.Search, err = web.Search(p, "search"); err != nil {
		return q, err
	}
	if q.Selection, err = web.Enum(p, "selection", kb.SelectionAll, web.ParseSelection); err != nil {
		return q, err
	}
	if q.ContentType, err = web.Enum(p, "contenttype", kb.ContentAll, web.ParseContentType); err != nil {
		return q, err
	}
	if q.OrderBy, err = web.OrderBy(p, "packagename"); err != nil {
		return q, err
	}
	if q.Page, err = web.Page(p, kb.DefaultCount); err != nil {
		return q, err
	}
	return q, nil
}

// titleQuery reads the parameters of the title lists.
func titleQuery(p web.Query) (kb.TitleQuery, error) {
	var q kb.TitleQuery
	var err error
	if q.Search, err = web.Search(p, "search"); err != nil {
		return q, err
	}
	if q.Field, err = web.Enum(p, "searchfield", kb.FieldTitleName, web.ParseSearchField); err != nil {
		return q, err
	}
	if q.Type, err = web.Enum(p, "searchtype", kb.SearchContains, web.ParseSearchType); err != nil {
		return q, err
	}
	if q.Selection, err = web.Enum(p, "selection", kb.SelectionAll, web.ParseSelection); err != nil {
		return q, err
	}
	if q.ResourceType, err = web.Enum(p, "resourcetype", kb.ResourceAll, web.ParseResourceType); err != nil {
		return q, err
	}
	if q.PackageIDs, err = web.IDs(p, "packageidfilter"); err != nil {
		return q, err
	}
	if q.OrderBy, err = web.OrderBy(p, "titlename"); err != nil {
		return q, err
	}
	if q.Page, err = web.Page(p, kb.DefaultCount); err != nil {
		return q, err
	}
	return q, nil
}
