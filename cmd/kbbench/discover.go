package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
)

// apiClient makes the start-up and clean-up requests of kbbench.
type apiClient struct {
	http *http.Client
	o    options
}

func newAPIClient(o options) *apiClient {
	return &apiClient{http: &http.Client{Timeout: o.timeout}, o: o}
}

// rmURL returns the URL of path under the customer's /rm/rmaccounts.
func (o options) rmURL(path string) string {
	return o.url + "/rm/rmaccounts/" + url.PathEscape(o.custID) + "/" + path
}

// do sends a request to path under the customer's /rm/rmaccounts and, for
// a 2xx answer, decodes its JSON body into out (when not nil).
func (a *apiClient) do(ctx context.Context, method, path string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.o.rmURL(path), rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("x-api-key", a.o.key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach kbserver at %s: %w", a.o.url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("kbserver at %s refused the API key for customer %q (%s): %s",
			a.o.url, a.o.custID, resp.Status, errorMessage(resp, b))
	case resp.StatusCode/100 != 2:
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, errorMessage(resp, b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s: decode answer: %w", method, path, err)
		}
	}
	return nil
}

// errorMessage returns the reason an error answer gives: X-Error-Message,
// or the message of the JSON error array, or the start of the body.
func errorMessage(resp *http.Response, body []byte) string {
	if m := resp.Header.Get("X-Error-Message"); m != "" {
		return m
	}
	var errs []struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &errs) == nil && len(errs) > 0 && errs[0].Message != "" {
		return errs[0].Message
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = "(no message)"
	}
	return s
}

// The parts of the answers discovery reads.
type (
	vendorList struct {
		Vendors []struct {
			VendorID int64 `json:"vendorId"`
		} `json:"vendors"`
	}
	packageList struct {
		PackagesList []packageRef `json:"packagesList"`
	}
	titleList struct {
		Titles []titleWire `json:"titles"`
	}
	titleWire struct {
		TitleID         int64  `json:"titleId"`
		TitleName       string `json:"titleName"`
		PublisherName   string `json:"publisherName"`
		IdentifiersList []struct {
			ID string `json:"id"`
		} `json:"identifiersList"`
		SubjectsList []struct {
			Subject string `json:"subject"`
		} `json:"subjectsList"`
		CustomerResourcesList []resourceWire `json:"customerResourcesList"`
	}
	// resourceWire is a title's resource with the customer's state.
	resourceWire struct {
		PackageID       int64  `json:"packageId"`
		VendorID        int64  `json:"vendorId"`
		PackageType     string `json:"packageType"`
		IsPackageCustom bool   `json:"isPackageCustom"`
		IsSelected      bool   `json:"isSelected"`
		VisibilityData  struct {
			IsHidden bool `json:"isHidden"`
		} `json:"visibilityData"`
		// Proxy is in resource details only; list items leave it out.
		Proxy *struct {
			Inherited bool `json:"inherited"`
		} `json:"proxy"`
		CustomCoverageList  []json.RawMessage `json:"customCoverageList"`
		CoverageStatement   *string           `json:"coverageStatement"`
		CustomEmbargoPeriod struct {
			EmbargoValue int `json:"embargoValue"`
		} `json:"customEmbargoPeriod"`
		UserDefinedField1 *string `json:"userDefinedField1"`
		UserDefinedField2 *string `json:"userDefinedField2"`
		UserDefinedField3 *string `json:"userDefinedField3"`
		UserDefinedField4 *string `json:"userDefinedField4"`
		UserDefinedField5 *string `json:"userDefinedField5"`
	}
	contactList struct {
		TotalResults int `json:"totalResults"`
	}
)

// packageRef is a package of the knowledge base.
type packageRef struct {
	PackageID   int64  `json:"packageId"`
	VendorID    int64  `json:"vendorId"`
	TitleCount  int    `json:"titleCount"`
	IsSelected  bool   `json:"isSelected"`
	PackageType string `json:"packageType"`
}

// resourceRef is a title in a package whose selection resource/put
// toggles; selected is its state at start-up.
type resourceRef struct {
	vendorID, packageID, titleID int64
	selected                     bool
}

// kbData is what discovery found: the material requests are built from.
type kbData struct {
	vendors    []int64
	packages   []packageRef // selected ones first
	titles     []int64
	titleNames []string
	publishers []string
	subjects   []string
	isxns      []string
	resources  []resourceRef

	createdContacts []string     // ids of the contacts kbbench created
	puts            atomic.Int64 // resource/put requests built so far
}

// discoveryPackages is how many packages' title lists discovery reads.
const discoveryPackages = 8

// discover reads the customer's knowledge base: vendors, packages, titles
// and their words and identifiers; for erm/contacts/list it makes sure the
// customer has contacts.
func discover(ctx context.Context, a *apiClient, o options, names []string) (*kbData, error) {
	d := &kbData{}
	var vl vendorList
	if err := a.do(ctx, http.MethodGet, "vendors?count=100", nil, &vl); err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	for _, v := range vl.Vendors {
		d.vendors = append(d.vendors, v.VendorID)
	}
	seenPkg := map[int64]bool{}
	for _, sel := range []string{"selected", "all"} {
		var pl packageList
		if err := a.do(ctx, http.MethodGet, "packages?count=100&selection="+sel, nil, &pl); err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		for _, p := range pl.PackagesList {
			if !seenPkg[p.PackageID] {
				seenPkg[p.PackageID] = true
				d.packages = append(d.packages, p)
			}
		}
	}
	if len(d.packages) == 0 {
		return nil, fmt.Errorf("discovery: customer %q sees no packages at %s", o.custID, o.url)
	}

	seenTitle := map[int64]bool{}
	seenRes := map[[2]int64]bool{}
	add := func(tl titleList) {
		for _, t := range tl.Titles {
			if seenTitle[t.TitleID] {
				continue
			}
			seenTitle[t.TitleID] = true
			d.titles = append(d.titles, t.TitleID)
			d.titleNames = appendText(d.titleNames, t.TitleName)
			d.publishers = appendText(d.publishers, t.PublisherName)
			for _, s := range t.SubjectsList {
				d.subjects = appendText(d.subjects, s.Subject)
			}
			for _, id := range t.IdentifiersList {
				if isxnLike(id.ID) {
					d.isxns = appendText(d.isxns, id.ID)
				}
			}
			for _, r := range t.CustomerResourcesList {
				key := [2]int64{r.PackageID, t.TitleID}
				if !r.toggleable() || seenRes[key] {
					continue
				}
				seenRes[key] = true
				d.resources = append(d.resources, resourceRef{vendorID: r.VendorID, packageID: r.PackageID, titleID: t.TitleID, selected: r.IsSelected})
			}
		}
	}
	read := 0
	for _, p := range d.packages {
		if read == discoveryPackages {
			break
		}
		if p.TitleCount == 0 {
			continue
		}
		read++
		var tl titleList
		if err := a.do(ctx, http.MethodGet, fmt.Sprintf("vendors/%d/packages/%d/titles?count=100", p.VendorID, p.PackageID), nil, &tl); err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		add(tl)
	}
	// A title search finds titles across packages, with all their resources.
	if ws := words(d.titleNames); len(ws) > 0 {
		var tl titleList
		if err := a.do(ctx, http.MethodGet, "titles?count=100&search="+url.QueryEscape(ws[0]), nil, &tl); err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		add(tl)
	}
	if len(d.titles) == 0 {
		return nil, fmt.Errorf("discovery: customer %q sees no titles at %s", o.custID, o.url)
	}
	// Titles not selected are toggled when there are any: selecting one and
	// deselecting it again leaves no trace, while a title selected through
	// its package keeps a title-level row "as the package" once put back.
	// At most 200 resources are toggled, so the state changed stays small.
	if unselected := slices.DeleteFunc(slices.Clone(d.resources), func(r resourceRef) bool { return r.selected }); len(unselected) > 0 {
		d.resources = unselected
	}
	// Lists do not carry a resource's proxy: the details of each
	// candidate say whether it has one of its own (then it is left alone).
	var kept []resourceRef
	for _, r := range d.resources {
		if len(kept) == 200 {
			break
		}
		var t struct {
			CustomerResourcesList []resourceWire `json:"customerResourcesList"`
		}
		if err := a.do(ctx, http.MethodGet, fmt.Sprintf("vendors/%d/packages/%d/titles/%d", r.vendorID, r.packageID, r.titleID), nil, &t); err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		if len(t.CustomerResourcesList) == 1 && t.CustomerResourcesList[0].toggleable() {
			kept = append(kept, r)
		}
	}
	d.resources = kept

	if slices.Contains(names, opContacts) {
		var cl contactList
		if err := a.do(ctx, http.MethodGet, "contact?count=1", nil, &cl); err != nil {
			return nil, fmt.Errorf("discovery: %w", err)
		}
		for i := 0; cl.TotalResults == 0 && i < 3; i++ {
			body := map[string]any{
				"extensionObject": map[string]any{"objectDescription": "kbbench contact (deleted at the end of the run)"},
				"contactPoint": map[string]any{"name": fmt.Sprintf("kbbench %d", i+1), "contactType": "technical",
					"telephone": "+1 555 0100", "email": fmt.Sprintf("kbbench%d@example.com", i+1)},
			}
			var created struct {
				ID string `json:"id"`
			}
			if err := a.do(ctx, http.MethodPost, "contact", body, &created); err != nil {
				return nil, fmt.Errorf("discovery: create a contact: %w", err)
			}
			d.createdContacts = append(d.createdContacts, created.ID)
		}
	}
	return d, nil
}

// toggleable reports whether resource/put may select and deselect r and
// then put it back with {"isSelected": its state}: a title of a managed
// package that is not Complete, with no customisation of the customer's
// (a PUT with isSelected only clears it; a list item does not show the
// proxy, the details do), not hidden. Titles of custom
// packages are left alone: deselecting one takes it out of the package
// and may delete it.
func (r resourceWire) toggleable() bool {
	empty := func(s *string) bool { return s == nil || *s == "" }
	return r.PackageType != "Complete" && !r.IsPackageCustom && !r.VisibilityData.IsHidden && (r.Proxy == nil || r.Proxy.Inherited) &&
		len(r.CustomCoverageList) == 0 && empty(r.CoverageStatement) && r.CustomEmbargoPeriod.EmbargoValue == 0 &&
		empty(r.UserDefinedField1) && empty(r.UserDefinedField2) && empty(r.UserDefinedField3) &&
		empty(r.UserDefinedField4) && empty(r.UserDefinedField5)
}

// cleanup deletes the contacts discovery created and puts every resource
// resource/put changed back to its discovered selection.
func (d *kbData) cleanup(ctx context.Context, a *apiClient) error {
	var errs []error
	for _, id := range d.createdContacts {
		if err := a.do(ctx, http.MethodDelete, "contact/"+url.PathEscape(id), nil, nil); err != nil {
			errs = append(errs, fmt.Errorf("delete contact %s: %w", id, err))
		}
	}
	d.createdContacts = nil
	// resource/put number k toggles resource k/2 (mod the count): the
	// first (puts+1)/2 resources may have changed.
	touched := min(int64(len(d.resources)), (d.puts.Load()+1)/2)
	for _, r := range d.resources[:touched] {
		body := map[string]bool{"isSelected": r.selected}
		path := fmt.Sprintf("vendors/%d/packages/%d/titles/%d", r.vendorID, r.packageID, r.titleID)
		if err := a.do(ctx, http.MethodPut, path, body, nil); err != nil {
			errs = append(errs, fmt.Errorf("restore resource: %w", err))
		}
	}
	d.puts.Store(0)
	return errors.Join(errs...)
}

// appendText appends s to list when it is not empty and not there yet
// (lists stay small: a linear check is enough, and keeps the order).
func appendText(list []string, s string) []string {
	s = strings.TrimSpace(s)
	if s == "" || len(list) >= 2000 || slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// isxnLike reports whether s looks like an ISSN or ISBN.
func isxnLike(s string) bool {
	n := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r == 'X', r == 'x':
			n++
		case r == '-':
		default:
			return false
		}
	}
	return n == 8 || n == 10 || n == 13
}

// splitWords returns the lower-case words of s of three or more letters
// or digits.
func splitWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len([]rune(w)) >= 3 && w != "and" && w != "the" && w != "for" {
			out = append(out, w)
		}
	}
	return out
}

// words returns the distinct words of texts, in order of appearance.
func words(texts []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, w := range splitWords(t) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// since returns the time elapsed since t in milliseconds.
func since(t time.Time) float64 {
	return float64(time.Since(t)) / float64(time.Millisecond)
}
