package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// updateVendor sets the customer's proxy and token value for a vendor:
// PUT vendors/{vendorid}.
func (h *handlers) updateVendor(w http.ResponseWriter, r *http.Request) error {
	vendorID, err := web.PathID(r, "vendorid")
	if err != nil {
		return err
	}
	var body vendorPayload
	if err := web.DecodeJSON(r, &body); err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if err := h.store.UpdateVendor(r.Context(), custID, vendorID, body.update()); err != nil {
		return fmt.Errorf("update vendor %d of %s: %w", vendorID, custID, err)
	}
	return noContent(w)
}

// update reads the body into a vendor update: no proxy, or one with
// inherited true, is the root proxy; no token value leaves the token as it
// is.
func (p *vendorPayload) update() kb.VendorUpdate {
	u := kb.VendorUpdate{Proxy: kb.ProxyRef{Inherited: true}, TokenValue: tokenValue(p.VendorToken)}
	if ref := proxyRef(p.Proxy); ref != nil {
		u.Proxy = *ref
	}
	return u
}
