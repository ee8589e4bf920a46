package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The hosted service words a bad contributor type differently in the two
// operations that take contributors.
var (
	errContributorTypeUpdate = invalid("Attribute Type is invalid.")
	errContributorTypeCreate = invalid("Parameter contributorsList.contributorType must be one of (author, editor, illustrator).")
)

// updateResource selects, deselects, hides or customises a title in a
// package: PUT vendors/{vendorid}/packages/{packageid}/titles/{kbid}. The
// title is read first, because a custom title needs titleName and pubType
// in the body (rule 2) and only custom titles and titles of custom packages
// take title fields; the store checks again in its transaction.
func (h *handlers) updateResource(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, titleID, err := resourcePath(r)
	if err != nil {
		return err
	}
	var body resourcePayload
	if err := web.DecodeJSON(r, &body); err != nil {
		return err
	}
	u, fields, err := body.update()
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	title, err := h.store.Resource(r.Context(), custID, vendorID, packageID, titleID)
	switch {
	case err == nil:
		custom := title.IsCustom
		inCustomPackage := len(title.Resources) > 0 && title.Resources[0].IsPackageCustom
		if custom && u.Selected {
			if err := body.requireNameAndType(); err != nil {
				return err
			}
		}
		if u.Selected && (custom || inCustomPackage && body.given()) {
			u.Title = &fields
		}
	case kb.ErrorCode(err) == kb.CodeNotFound:
		// Not in the package yet: a managed title added to a custom
		// package, which the store allows or refuses.
		if u.Selected && body.given() {
			u.Title = &fields
		}
	default:
		return fmt.Errorf("read resource %d/%d/%d of %s: %w", vendorID, packageID, titleID, custID, err)
	}
	if err := h.store.UpdateResource(r.Context(), custID, vendorID, packageID, titleID, u); err != nil {
		return fmt.Errorf("update resource %d/%d/%d of %s: %w", vendorID, packageID, titleID, custID, err)
	}
	return noContent(w)
}

// createCustomTitle adds a custom title to a custom package:
// POST vendors/{vendorid}/packages/{packageid}/titles. It answers
// {"titleId":N}.
func (h *handlers) createCustomTitle(w http.ResponseWriter, r *http.Request) error {
	vendorID, packageID, err := packagePath(r)
	if err != nil {
		return err
	}
	t, err := decode(r, (*customTitlePayload).customTitle)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	id, err := h.store.CreateCustomTitle(r.Context(), custID, vendorID, packageID, t)
	if err != nil {
		return fmt.Errorf("create custom title in package %d/%d of %s: %w", vendorID, packageID, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, customTitleResponse{TitleID: id})
}

// update reads a title PUT body into the resource update and the title
// fields, checking every member. A deselection carries nothing else: it
// clears the title-level customisation (and deletes a custom title). The
// handler decides whether the title fields apply.
func (p *resourcePayload) update() (kb.ResourceUpdate, kb.TitleFields, error) {
	var err error
	if p.IsSelected, err = alias("isSelected", p.IsSelected, "selected", p.Selected); err != nil {
		return kb.ResourceUpdate{}, kb.TitleFields{}, err
	}
	selected, hidden, err := selection(p.IsSelected, p.IsHidden)
	if err != nil {
		return kb.ResourceUpdate{}, kb.TitleFields{}, err
	}
	fields, err := p.fields(errContributorTypeUpdate)
	if err != nil {
		return kb.ResourceUpdate{}, kb.TitleFields{}, err
	}
	c, err := p.read()
	if err != nil {
		return kb.ResourceUpdate{}, kb.TitleFields{}, err
	}
	if !selected {
		return kb.ResourceUpdate{}, fields, nil
	}
	return kb.ResourceUpdate{
		Selected:          true,
		Hidden:            hidden,
		CustomCoverage:    c.Coverage,
		CoverageStatement: c.Statement,
		CustomEmbargo:     c.Embargo,
		Proxy:             proxyRef(p.Proxy),
		UserDefined:       c.UserDefined,
	}, fields, nil
}

// customTitle reads a custom title POST body; titleName and pubType are
// required.
func (p *customTitlePayload) customTitle() (kb.CustomTitle, error) {
	if err := p.requireNameAndType(); err != nil {
		return kb.CustomTitle{}, err
	}
	fields, err := p.fields(errContributorTypeCreate)
	if err != nil {
		return kb.CustomTitle{}, err
	}
	c, err := p.read()
	if err != nil {
		return kb.CustomTitle{}, err
	}
	return kb.CustomTitle{
		TitleFields:       fields,
		CustomCoverage:    c.Coverage,
		CoverageStatement: c.Statement,
		CustomEmbargo:     c.Embargo,
		UserDefined:       c.UserDefined,
	}, nil
}
