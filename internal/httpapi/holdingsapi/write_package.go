package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// updatePackage selects, deselects, hides or customises a package:
// PUT vendors/{vendorid}/packages/{packageid}. Deselecting a custom package
// deletes it with its titles.
func (h *handlers) updatePackage(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, err := packagePath(r)
	if err != nil {
		return err
	}
	u, err := decode(r, (*packagePayload).update)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if err := h.store.UpdatePackage(r.Context(), custID, vendorID, packageID, u); err != nil {
		return fmt.Errorf("update package %d/%d of %s: %w", vendorID, packageID, custID, err)
	}
	return noContent(w)
}

// createCustomPackage creates a custom package under the customer's own
// vendor: POST vendors/{vendorid}/packages. It answers {"packageId":N}.
func (h *handlers) createCustomPackage(w http.ResponseWriter, r *http.Request) error {
	vendorID, err := web.PathID(r, "vendorid")
	if err != nil {
		return err
	}
	p, err := decode(r, (*customPackagePayload).customPackage)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	id, err := h.store.CreateCustomPackage(r.Context(), custID, vendorID, p)
	if err != nil {
		return fmt.Errorf("create custom package under vendor %d of %s: %w", vendorID, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, customPackageResponse{PackageID: id})
}

// deleteCustomPackage deletes a custom package and its titles:
// DELETE vendors/{vendorid}/packages/{packageid}. The store refuses it for
// a managed package.
func (h *handlers) deleteCustomPackage(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, err := packagePath(r)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if err := h.store.DeleteCustomPackage(r.Context(), custID, vendorID, packageID); err != nil {
		return fmt.Errorf("delete package %d/%d of %s: %w", vendorID, packageID, custID, err)
	}
	return noContent(w)
}

// update reads a package PUT body. Every member is checked; a deselection
// carries nothing else, since deselecting clears the package's
// customisation.
func (p *packagePayload) update() (kb.PackageUpdate, error) {
	var err error
	if p.IsSelected, err = alias("isSelected", p.IsSelected, "selected", p.Selected); err != nil {
		return kb.PackageUpdate{}, err
	}
	if p.AllowOperatorToAddTitles, err = alias("allowOperatorToAddTitles", p.AllowOperatorToAddTitles, "allowEbscoToAddTitles", p.AllowEbscoToAddTitles); err != nil {
		return kb.PackageUpdate{}, err
	}
	selected, hidden, err := selection(p.IsSelected, p.IsHidden)
	if err != nil {
		return kb.PackageUpdate{}, err
	}
	cov, err := coverage(p.CustomCoverage)
	if err != nil {
		return kb.PackageUpdate{}, err
	}
	var ct kb.ContentType // ContentAll: unchanged
	if p.ContentType != nil {
		if ct, err = contentType(*p.ContentType); err != nil {
			return kb.PackageUpdate{}, err
		}
	}
	if p.PackageName != nil && trimmed(p.PackageName) == "" {
		return kb.PackageUpdate{}, invalid("Attribute packageName must not be empty.")
	}
	if !selected {
		return kb.PackageUpdate{}, nil
	}
	return kb.PackageUpdate{
		Selected:                 true,
		FullPackage:              p.IsFullPackage,
		Hidden:                   hidden,
		CustomCoverage:           cov,
		Proxy:                    proxyRef(p.Proxy),
		TokenValue:               tokenValue(p.PackageToken),
		AllowOperatorToAddTitles: isTrue(p.AllowOperatorToAddTitles),
		Name:                     trimmed(p.PackageName),
		ContentType:              ct,
	}, nil
}

// customPackage reads a custom package POST body: the name is required,
// the content type 1 to 7 (unknown when absent).
func (p *customPackagePayload) customPackage() (kb.CustomPackage, error) {
	for _, m := range []struct {
		name  string
		empty bool
	}{
		{"customAltNames", len(p.CustomAltNames) == 0},
		{"subjects", len(p.Subjects) == 0},
		{"customDescription", trimmed(p.CustomDescription) == ""},
		{"customDisplayName", trimmed(p.CustomDisplayName) == ""},
		{"url", trimmed(p.URL) == ""},
		{"packageFreeAccess", !isTrue(p.PackageFreeAccess)},
	} {
		if err := notKept(m.name, m.empty); err != nil {
			return kb.CustomPackage{}, err
		}
	}
	name := trimmed(p.PackageName)
	if name == "" {
		return kb.CustomPackage{}, missing("PackageName")
	}
	ct := kb.ContentUnknown
	if p.ContentType != nil {
		var err error
		if ct, err = contentType(*p.ContentType); err != nil {
			return kb.CustomPackage{}, err
		}
	}
	cov, err := coverage(p.CustomCoverage)
	if err != nil {
		return kb.CustomPackage{}, err
	}
	return kb.CustomPackage{Name: name, ContentType: ct, CustomCoverage: cov, Proxy: proxyRef(p.Proxy)}, nil
}
