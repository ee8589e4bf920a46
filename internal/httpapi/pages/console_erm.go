package pages

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/ermapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's resource management: the customer's licenses, contacts,
// administrative access details and external documents, edited as the
// service's own JSON bodies (every member of the specification's
// payloads, checked by the service's own code: ermapi.ReadObject), and
// their assignments to packages and titles.

// ermKind is an object kind as the console names it.
type ermKind struct {
	ermapi.Kind
	Title    string // plural, for headings
	Template string // the body a new object starts from
}

// ermKinds are the kinds in the service's order.
var ermKinds = func() []ermKind {
	info := map[kb.ERMKind][2]string{
		kb.KindAdminAccess: {"Administrative access", `{"extensionObject": {"objectDescription": "", "status": "active"}, "adminAccessInterface": ""}`},
		kb.KindContact: {"Contacts", `{"extensionObject": {"objectDescription": "", "status": "active"},
 "contactPoint": {"name": "", "contactType": "", "telephone": "", "email": ""}}`},
		kb.KindExternalDocument: {"External documents", `{"extensionObject": {"objectDescription": "", "status": "active"},
 "externalDocument": {"externalDocumentType": "", "url": ""}}`},
		kb.KindLicense: {"Licenses", `{"extensionObject": {"objectDescription": "", "status": "active"}, "license": {"licenseType": ""}}`},
	}
	var out []ermKind
	for _, k := range ermapi.Kinds() {
		out = append(out, ermKind{Kind: k, Title: info[k.Kind][0], Template: info[k.Kind][1]})
	}
	return out
}()

// ermKindOf returns the kind of the path's {kind}.
func ermKindOf(r *http.Request) (ermKind, error) {
	for _, k := range ermKinds {
		if k.Path == r.PathValue("kind") {
			return k, nil
		}
	}
	return ermKind{}, kb.Errorf(kb.CodeNotFound, "There is no kind of resource management object %q.", r.PathValue("kind"))
}

// ermKindByKind returns the console's description of a store kind.
func ermKindByKind(kind kb.ERMKind) (ermKind, bool) {
	for _, k := range ermKinds {
		if k.Kind.Kind == kind {
			return k, true
		}
	}
	return ermKind{}, false
}

// ermListSize is how many objects a console list shows.
const ermListSize = 100

// consoleERM lists the objects of one kind with a form for a new one; at
// /console/erm/ it lists the kinds with their numbers.
func (p *pages) consoleERM(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	type kindCount struct {
		ermKind
		Total int
	}
	data := struct {
		frame
		Kinds   []kindCount
		Kind    *ermKind
		Objects []kb.ERMObject
		Total   int
		Body    string
		Error   string
	}{frame: consoleFrame(s, "Resource management")}
	if r.PathValue("kind") == "" {
		for _, k := range ermKinds {
			l, err := p.store.ERMObjects(ctx, s.CustomerID, kb.ERMQuery{Kind: k.Kind.Kind, Page: kb.Page{Count: 1, Number: 1}})
			if err != nil {
				return fmt.Errorf("%s of %s: %w", k.Path, s.CustomerID, err)
			}
			data.Kinds = append(data.Kinds, kindCount{k, l.Total})
		}
		return render(w, http.StatusOK, "console_erm", data)
	}
	k, err := ermKindOf(r)
	if err != nil {
		return err
	}
	data.Kind, data.Body, data.Title = &k, k.Template, k.Title
	status := http.StatusOK
	if r.Method == http.MethodPost {
		data.Body = r.PostFormValue("body")
		o, err := ermapi.ReadObject(s.CustomerID, k.Kind.Kind, "", []byte(data.Body))
		if err == nil {
			o.ID, o.Created = kb.NewUUID(), time.Now().UTC()
			o.Updated = o.Created
			err = p.store.CreateERMObject(ctx, o)
		}
		if err == nil {
			http.Redirect(w, r, consolePath+"erm/"+k.Path+"/"+o.ID+"?saved=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("create %s of %s: %w", k.Path, s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	}
	l, err := p.store.ERMObjects(ctx, s.CustomerID, kb.ERMQuery{Kind: k.Kind.Kind,
		Sort: []kb.ERMSort{{Field: kb.FieldDescription}}, Page: kb.Page{Count: ermListSize, Number: 1}})
	if err != nil {
		return fmt.Errorf("%s of %s: %w", k.Path, s.CustomerID, err)
	}
	data.Objects, data.Total = l.Objects, l.Total
	return render(w, status, "console_erm", data)
}

// consoleERMObject serves one object: its body as a form, its
// assignments, and a delete button.
func (p *pages) consoleERMObject(w http.ResponseWriter, r *http.Request, s *staff) error {
	k, err := ermKindOf(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	id := r.PathValue("id")
	o, err := p.store.ERMObject(ctx, s.CustomerID, k.Kind.Kind, id)
	if err != nil {
		return passOn(err, "%s %s", k.Path, id)
	}
	data := struct {
		frame
		Kind         ermKind
		Object       kb.ERMObject
		Body         string
		Assignments  []kb.Assignment
		Error, Flash string
		Action       string
	}{frame: consoleFrame(s, o.Description), Kind: k, Object: o, Action: r.URL.Path}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		data.Body = r.PostFormValue("body")
		u, err := ermapi.ReadObject(s.CustomerID, k.Kind.Kind, id, []byte(data.Body))
		if err == nil {
			u.Updated = time.Now().UTC()
			err = p.store.UpdateERMObject(ctx, u)
		}
		if err == nil {
			http.Redirect(w, r, r.URL.Path+"?saved=1", http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("update %s %s of %s: %w", k.Path, id, s.CustomerID, err)
		}
		status, data.Error = web.InPlace(w, err)
	} else {
		b, err := ermapi.ObjectJSON(o)
		if err != nil {
			return err
		}
		data.Body = string(b)
		if r.URL.Query().Get("saved") != "" {
			data.Flash = "Saved."
		}
	}
	l, err := p.store.Assignments(ctx, s.CustomerID, kb.AssignmentQuery{ObjectID: id, Page: kb.Page{Count: ermListSize, Number: 1}})
	if err != nil {
		return fmt.Errorf("assignments of %s: %w", id, err)
	}
	data.Assignments = l.Assignments
	return render(w, status, "console_erm_object", data)
}

// consoleERMDelete deletes an object and its assignments.
func (p *pages) consoleERMDelete(w http.ResponseWriter, r *http.Request, s *staff) error {
	k, err := ermKindOf(r)
	if err != nil {
		return err
	}
	if err := p.store.DeleteERMObject(r.Context(), s.CustomerID, k.Kind.Kind, r.PathValue("id")); err != nil {
		return passOn(err, "delete %s %s", k.Path, r.PathValue("id"))
	}
	http.Redirect(w, r, consolePath+"erm/"+k.Path, http.StatusSeeOther)
	return nil
}

// consoleAssign assigns one of the customer's objects (field object,
// "kind/id") to a package or title of the knowledge base (field
// relativeurl, such as /vendors/5/packages/169) and goes back to the
// console page the form was on (field back).
func (p *pages) consoleAssign(w http.ResponseWriter, r *http.Request, s *staff) error {
	kindPath, id, _ := strings.Cut(r.PostFormValue("object"), "/")
	k, ok := ermapi.KindByPath(kindPath)
	if !ok || id == "" {
		return kb.Errorf(kb.CodeInvalid, "Choose the object to assign.")
	}
	ctx := r.Context()
	o, err := p.store.ERMObject(ctx, s.CustomerID, k.Kind, id)
	if err != nil {
		return passOn(err, "%s %s", kindPath, id)
	}
	rel := strings.TrimSpace(r.PostFormValue("relativeurl"))
	context := "package"
	if strings.Contains(rel, "/titles/") {
		context = "title"
	}
	if _, err := ermapi.Assign(ctx, p.store, s.CustomerID, o, context, "public", rel, "kbserver console"); err != nil {
		return passOn(err, "assign %s %s", kindPath, id)
	}
	http.Redirect(w, r, backTo(r), http.StatusSeeOther)
	return nil
}

// consoleUnassign deletes an assignment and goes back.
func (p *pages) consoleUnassign(w http.ResponseWriter, r *http.Request, s *staff) error {
	if err := p.store.DeleteAssignment(r.Context(), s.CustomerID, r.PathValue("id")); err != nil {
		return passOn(err, "delete assignment %s", r.PathValue("id"))
	}
	http.Redirect(w, r, backTo(r), http.StatusSeeOther)
	return nil
}

// backTo returns the console page a form names in its field back, or the
// console's start: never a page elsewhere.
func backTo(r *http.Request) string {
	back := r.PostFormValue("back")
	if !strings.HasPrefix(back, consolePath) || strings.HasPrefix(back, "//") || strings.Contains(back, "\\") {
		return consolePath
	}
	return back
}

// assigned is what a package's or title's page shows of resource
// management: the objects assigned to it, and the customer's objects to
// assign.
type assigned struct {
	RelativeURL string
	Back        string
	CSRF        string
	Items       []assignedItem
	Choices     []option
}

// assignedItem is one assignment with its object.
type assignedItem struct {
	AssignmentID string
	Kind         ermKind
	Object       kb.ERMObject
}

// assignedTo reads the assignments to a knowledge-base reference and the
// objects that could be assigned to it.
func (p *pages) assignedTo(r *http.Request, s *staff, rel string) (*assigned, error) {
	ctx := r.Context()
	custID := s.CustomerID
	out := &assigned{RelativeURL: rel, Back: r.URL.Path, CSRF: s.CSRF}
	// The customer's objects, to offer; an assigned object is read from
	// them, or on its own when the list left it out.
	listed := map[string]kb.ERMObject{}
	for _, k := range ermKinds {
		objs, err := p.store.ERMObjects(ctx, custID, kb.ERMQuery{Kind: k.Kind.Kind, Sort: []kb.ERMSort{{Field: kb.FieldDescription}},
			Page: kb.Page{Count: ermListSize, Number: 1}})
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", k.Path, custID, err)
		}
		for _, o := range objs.Objects {
			listed[o.ID] = o
			out.Choices = append(out.Choices, option{Value: k.Path + "/" + o.ID, Label: k.Title + ": " + o.Description})
		}
	}
	l, err := p.store.Assignments(ctx, custID, kb.AssignmentQuery{RelativeURL: rel, Page: kb.Page{Count: ermListSize, Number: 1}})
	if err != nil {
		return nil, fmt.Errorf("assignments to %s: %w", rel, err)
	}
	for _, a := range l.Assignments {
		k, ok := ermKindByKind(a.ObjectKind)
		if !ok {
			continue
		}
		o, ok := listed[a.ObjectID]
		if !ok {
			if o, err = p.store.ERMObject(ctx, custID, a.ObjectKind, a.ObjectID); err != nil {
				return nil, fmt.Errorf("object %s: %w", a.ObjectID, err)
			}
		}
		out.Items = append(out.Items, assignedItem{AssignmentID: a.ID, Kind: k, Object: o})
	}
	return out, nil
}

// consoleLink returns the console page of a knowledge-base reference
// (/vendors/V/packages/P, /vendors/V/packages/P/titles/T), "" for another
// reference.
func consoleLink(rel string) string {
	var v, p, t int64
	if n, _ := fmt.Sscanf(rel, "/vendors/%d/packages/%d/titles/%d", &v, &p, &t); n == 3 && rel == fmt.Sprintf("/vendors/%d/packages/%d/titles/%d", v, p, t) {
		return fmt.Sprintf("%sresources/%d/%d/%d", consolePath, v, p, t)
	}
	if n, _ := fmt.Sscanf(rel, "/vendors/%d/packages/%d", &v, &p); n == 2 && rel == fmt.Sprintf("/vendors/%d/packages/%d", v, p) {
		return fmt.Sprintf("%spackages/%d/%d", consolePath, v, p)
	}
	return ""
}
