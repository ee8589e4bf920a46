package pages

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/holdingsapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's settings, holdings snapshot, and custom packages and
// titles, each through the store method the holdings service calls.

// settingsPage is what the settings page shows.
type settingsPage struct {
	frame
	Proxies      []option
	Labels       []labelRow
	Error, Flash string
}

// labelRow is one of the five labels in the settings form.
type labelRow struct {
	N                string
	Label            string
	FullText, Finder bool
}

// consoleSettings serves and saves the root proxy and the five labels of
// user-defined fields (the holdings service's PUT root).
func (p *pages) consoleSettings(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	root, err := p.store.Root(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("root settings of %s: %w", s.CustomerID, err)
	}
	data := settingsPage{frame: consoleFrame(s, "Settings")}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		root, err = settingsForm(r, root)
		if err == nil {
			err = p.store.UpdateRoot(ctx, s.CustomerID, root)
		}
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?saved=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("update root settings of %s: %w", s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	} else if r.URL.Query().Get("saved") != "" {
		data.Flash = "Saved."
	}
	proxy := kb.ProxyRef{ID: root.ProxyID}
	if data.Proxies, err = p.proxyOptions(r, s.CustomerID, proxy); err != nil {
		return err
	}
	data.Proxies = data.Proxies[1:] // the root inherits from nothing
	for i, l := range root.Labels {
		data.Labels = append(data.Labels, labelRow{N: strconv.Itoa(i + 1), Label: l.DisplayLabel,
			FullText: l.DisplayOnFullTextFinder, Finder: l.DisplayOnPublicationFinder})
	}
	return render(w, status, "console_settings", data)
}

// settingsForm reads the settings form over root.
func settingsForm(r *http.Request, root kb.RootSettings) (kb.RootSettings, error) {
	f := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	root.ProxyID = f("proxy")
	if root.ProxyID == "" {
		root.ProxyID = kb.NoProxyID
	}
	for i := range root.Labels {
		n := strconv.Itoa(i + 1)
		root.Labels[i] = kb.Label{ID: i + 1, DisplayLabel: f("label" + n),
			DisplayOnFullTextFinder: f("fulltext"+n) == "on", DisplayOnPublicationFinder: f("finder"+n) == "on"}
		if err := kb.CheckText("Label "+n, root.Labels[i].DisplayLabel, kb.LimitLabel); err != nil {
			return root, err
		}
	}
	return root, nil
}

// consoleSnapshot serves the holdings snapshot's status with a button
// that builds a new one (the holdings service's POST holdings).
func (p *pages) consoleSnapshot(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	data := struct {
		frame
		Status       kb.SnapshotStatus
		Error, Flash string
	}{frame: consoleFrame(s, "Holdings snapshot")}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		err := p.store.StartSnapshot(ctx, s.CustomerID, false)
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?started=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("start the snapshot of %s: %w", s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	} else if r.URL.Query().Get("started") != "" {
		data.Flash = "The snapshot is being built; reload this page to see when it is completed."
	}
	st, err := p.store.SnapshotStatus(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("snapshot status of %s: %w", s.CustomerID, err)
	}
	data.Status = st
	return render(w, status, "console_snapshot", data)
}

// consoleSnapshotFile downloads the completed snapshot as a KBART file,
// as the holdings service's GET holdings does for text/tab-separated-values.
func (p *pages) consoleSnapshotFile(w http.ResponseWriter, r *http.Request, s *staff) error {
	st, err := p.store.SnapshotStatus(r.Context(), s.CustomerID)
	if err != nil {
		return fmt.Errorf("snapshot status of %s: %w", s.CustomerID, err)
	}
	if st.Status != kb.SnapshotCompleted {
		return kb.Errorf(kb.CodeNotFound, "There is no completed holdings snapshot to download (status: %s): build one first.", st.Status)
	}
	w.Header().Set("Content-Type", "text/tab-separated-values; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+holdingsapi.HoldingsFileName(s.CustomerID, st.Created)+`"`)
	_, err = holdingsapi.WriteHoldingsKBART(r.Context(), p.store, s.CustomerID, 1, 0, w)
	return err
}

// contentTypeOptions are the content types a custom package may have.
func contentTypeOptions(cur kb.ContentType) []option {
	var out []option
	for c := kb.ContentType(1); c.ValidForPackage(); c++ {
		out = append(out, option{Value: strconv.Itoa(int(c)), Label: c.Display(), Selected: c == cur})
	}
	return out
}

// contentTypeField reads a content type of the form: 1 to 7.
func contentTypeField(v string) (kb.ContentType, error) {
	n, err := strconv.Atoi(v)
	if c := kb.ContentType(n); err == nil && c.ValidForPackage() {
		return c, nil
	}
	return 0, kb.Errorf(kb.CodeInvalid, "Choose the package's content type (got %q).", v)
}

// consoleNewPackage creates a custom package under the customer's own
// vendor (the holdings service's POST packages).
func (p *pages) consoleNewPackage(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	root, err := p.store.Root(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("root settings of %s: %w", s.CustomerID, err)
	}
	ct, err := contentTypeField(r.PostFormValue("contenttype"))
	if err != nil {
		return err
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" {
		return kb.Errorf(kb.CodeInvalid, "Give the new package a name.")
	}
	id, err := p.store.CreateCustomPackage(ctx, s.CustomerID, root.VendorID, kb.CustomPackage{Name: name, ContentType: ct})
	if err != nil {
		return passOn(err, "create custom package %q", name)
	}
	http.Redirect(w, r, fmt.Sprintf("%spackages/%d/%d?saved=1", consolePath, root.VendorID, id), http.StatusSeeOther)
	return nil
}

// consoleNewTitle adds a custom title to a custom package (the holdings
// service's POST titles).
func (p *pages) consoleNewTitle(w http.ResponseWriter, r *http.Request, s *staff) error {
	vendorID, packageID, err := pathIDs2(r)
	if err != nil {
		return err
	}
	fields, err := titleFieldsForm(r)
	if err != nil {
		return err
	}
	id, err := p.store.CreateCustomTitle(r.Context(), s.CustomerID, vendorID, packageID, kb.CustomTitle{TitleFields: fields})
	if err != nil {
		return passOn(err, "create custom title in package %d/%d", vendorID, packageID)
	}
	http.Redirect(w, r, fmt.Sprintf("%sresources/%d/%d/%d?saved=1", consolePath, vendorID, packageID, id), http.StatusSeeOther)
	return nil
}

// titleFieldsForm reads a custom title's fields: name and type are
// required, as the holdings service requires them.
func titleFieldsForm(r *http.Request) (kb.TitleFields, error) {
	f := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
	t := kb.TitleFields{Name: f("titlename"), Publisher: f("publisher"), URL: f("url"), Edition: f("edition"),
		Description: f("description"), PeerReviewed: f("peerreviewed") == "on"}
	if t.Name == "" {
		return t, kb.Errorf(kb.CodeInvalid, "A custom title needs a name.")
	}
	rt, ok := kb.LookupResourceType(f("pubtype"))
	if !ok || rt == kb.ResourceAll {
		return t, kb.Errorf(kb.CodeInvalid, "Choose the title's type (got %q).", f("pubtype"))
	}
	t.PubType = rt
	return t, nil
}

// pubTypeOptions are the resource types a custom title may have.
func pubTypeOptions(cur kb.ResourceType) []option {
	var out []option
	for i, name := range kb.ResourceTypeNames() {
		if i == 0 {
			continue
		}
		rt, _ := kb.LookupResourceType(name)
		out = append(out, option{Value: name, Label: typeWords(rt), Selected: rt == cur})
	}
	return out
}
