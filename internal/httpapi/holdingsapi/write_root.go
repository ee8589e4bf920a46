package holdingsapi

import (
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/kb"
)

// maxLabels is the number of custom labels a customer has.
const maxLabels = len(kb.RootSettings{}.Labels)

// putRoot sets the root proxy and the custom labels: PUT {custid}/.
func (h *handlers) putRoot(w http.ResponseWriter, r *http.Request) error {
	s, err := decode(r, (*rootPayload).settings)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if err := h.store.UpdateRoot(r.Context(), custID, s); err != nil {
		return fmt.Errorf("update root settings of %s: %w", custID, err)
	}
	return noContent(w)
}

// settings reads the body into the root settings: the proxy is required (an
// empty id is no proxy), at most five labels with ids 1 to 5, each once; a
// label id left out gets an empty label and both display flags false.
func (p *rootPayload) settings() (kb.RootSettings, error) {
	var s kb.RootSettings
	if p.Proxy == nil {
		return s, missing("Proxy")
	}
	if isTrue(p.Proxy.Inherited) {
		return s, invalid("Attribute proxy.inherited must be false or null: the root proxy inherits from nothing.")
	}
	s.ProxyID = trimmed(p.Proxy.ID)
	if s.ProxyID == "" {
		s.ProxyID = kb.NoProxyID
	}
	if len(p.Labels) > maxLabels {
		return s, invalid("Attribute labels holds %d labels: at most %d are allowed.", len(p.Labels), maxLabels)
	}
	for i := range s.Labels {
		s.Labels[i].ID = i + 1
	}
	seen := map[int]bool{}
	for i, l := range p.Labels {
		if l.ID == nil {
			return s, missing(fmt.Sprintf("labels[%d].id", i))
		}
		id := int(*l.ID)
		switch {
		case id < 1 || id > maxLabels:
			return s, invalid("Attribute labels[%d].id must be from 1 to %d, not %d.", i, maxLabels, id)
		case seen[id]:
			return s, invalid("Attribute labels[%d].id: label %d is sent more than once.", i, id)
		}
		seen[id] = true
		s.Labels[id-1] = kb.Label{
			ID:                         id,
			DisplayLabel:               trimmed(l.DisplayLabel),
			DisplayOnFullTextFinder:    isTrue(l.DisplayOnFullTextFinder),
			DisplayOnPublicationFinder: isTrue(l.DisplayOnPublicationFinder),
		}
	}
	return s, nil
}
