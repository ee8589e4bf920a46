package scholarapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/scholar"
)

// ContentType is the answers' media type.
const ContentType = "application/xml"

// handlers serve the routes.
type handlers struct {
	store Store
	files *Files
	write writeFunc
}

// customerSet returns the profile's customer's holdings files at its
// current collection version.
func (h *handlers) customerSet(r *http.Request) (kb.ProfileID, *fileSet, error) {
	id, _ := web.ProfileFrom(r.Context())
	version, err := h.store.CollectionVersion(r.Context(), id.CustomerID)
	if err != nil {
		return id, nil, fmt.Errorf("holdings files of %s: %w", id.CustomerID, err)
	}
	s, err := h.files.set(r.Context(), id.CustomerID, version, h.write)
	return id, s, err
}

// links serves institutional_links.xml: the customer's name as the
// institution, this server's resolver for the profile as the OpenURL
// base and the addresses of the holdings files, all absolute on the host
// the request came to (https when it came over TLS or a proxy in front
// says so, as the link-outs are made: pfapi.LinkOutURL).
func (h *handlers) links(w http.ResponseWriter, r *http.Request) error {
	id, s, err := h.customerSet(r)
	if err != nil {
		return err
	}
	cust, err := h.store.Customer(r.Context(), id.CustomerID)
	if err != nil {
		return fmt.Errorf("institutional links of %s: %w", id, err)
	}
	l := scholar.Links{
		Institution:         cust.Name,
		ElectronicLinkLabel: "Full text @ " + cust.Name,
		OpenURLBase:         absolute(r, "/openurl/"+id.String()),
		OpenURLOptions:      scholar.DefaultOpenURLOptions,
	}
	if l.Institution == "" { // a customer made without a name
		l.Institution, l.ElectronicLinkLabel = id.CustomerID, "Full text @ "+id.CustomerID
	}
	for _, name := range s.names {
		l.Holdings = append(l.Holdings, absolute(r, "/scholar/"+id.String()+"/"+name))
	}
	b, err := l.Marshal()
	if err != nil {
		return fmt.Errorf("institutional links of %s: %w", id, err)
	}
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, err = w.Write(b)
	return err
}

// holdings serves one holdings file of the set institutional_links.xml
// names; any other name is 404.
func (h *handlers) holdings(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	n, ok := scholar.HoldingsNumber(name)
	if !ok {
		return kb.Errorf(kb.CodeNotFound, "No file %q here: the holdings files are holdings-1.xml, holdings-2.xml, … as institutional_links.xml names them.", name)
	}
	// A set removed between its lookup and the file's opening (written
	// again for a new version, or out of the budget) is looked up again.
	for try := 0; ; try++ {
		_, s, err := h.customerSet(r)
		if err != nil {
			return err
		}
		if n > len(s.names) {
			return kb.Errorf(kb.CodeNotFound, "No file %s: the customer's holdings fill %d file(s) now (institutional_links.xml names them).", name, len(s.names))
		}
		f, err := os.Open(filepath.Join(s.dir, name))
		if errors.Is(err, fs.ErrNotExist) && try == 0 {
			continue
		}
		if err != nil {
			return fmt.Errorf("holdings file %s: %w", name, err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return fmt.Errorf("holdings file %s: %w", name, err)
		}
		w.Header().Set("Content-Type", ContentType)
		w.Header().Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		_, err = io.Copy(w, f)
		return err
	}
}

// absolute returns the absolute address of path on the host the request
// came to, with the scheme the link-outs use (web.HTTPS).
func absolute(r *http.Request, path string) string {
	scheme := "http"
	if web.HTTPS(r) {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: r.Host, Path: path}).String()
}
