package ermapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// assignmentDto is the specification's AssignmentDto, the body of a new
// assignment. relativeUrl is a pointer: it must be present, but may be
// empty when link.url names the reference.
type assignmentDto struct {
	Access            string               `json:"access,omitempty" limit:"short"`
	AssignmentContext string               `json:"assignmentContext,omitempty" limit:"short"`
	AssignmentType    string               `json:"assignmentType,omitempty" limit:"short"`
	CustomerID        string               `json:"customerId,omitempty" limit:"id"`
	RelativeURL       *string              `json:"relativeUrl,omitempty" limit:"url"`
	ExtensionObject   *assignmentExtension `json:"extensionObject,omitempty"`
	Link              *assignmentLink      `json:"link,omitempty"`
}

// assignmentExtension is an AssignmentDto's extensionObject.
type assignmentExtension struct {
	ObjectDescription string `json:"objectDescription,omitempty" limit:"short"`
	ObjectType        string `json:"objectType,omitempty" limit:"id"`
}

// assignmentLink is an AssignmentDto's link.
type assignmentLink struct {
	Application *assignmentApplication `json:"application,omitempty"`
	Description string                 `json:"description,omitempty" limit:"short"`
	URL         string                 `json:"url,omitempty" limit:"url"`
}

// assignmentApplication is the application of an AssignmentDto's link.
type assignmentApplication struct {
	Name            string `json:"name,omitempty" limit:"short"`
	SoftwareVersion string `json:"softwareVersion,omitempty" limit:"short"`
}

// assignmentItem is an assignment in a list: its AssignmentDto with its
// id, the id of the assigned object and its creation time.
type assignmentItem struct {
	ID          string `json:"id"`
	ObjectID    string `json:"objectId"`
	DateCreated string `json:"dateCreated"`
	assignmentDto
}

// assignmentResult is the answer of a new assignment.
type assignmentResult struct {
	AssignmentID string           `json:"assignmentId"`
	Successful   bool             `json:"successful"`
	Errors       []web.ErrorModel `json:"errors"`
}

// check checks a new assignment of a customer's object: the required
// members present, customerId the customer's, a reference given, and
// objectType an object kind, which it returns.
func (a *assignmentDto) check(custID string) (*kind, error) {
	if err := required(
		"assignmentContext", a.AssignmentContext,
		"access", a.Access,
		"customerId", a.CustomerID); err != nil {
		return nil, err
	}
	if a.RelativeURL == nil {
		return nil, missing("relativeUrl")
	}
	if a.Link == nil {
		return nil, missing("link")
	}
	if a.Link.Application == nil {
		return nil, missing("link.application")
	}
	if err := required("link.application.name", a.Link.Application.Name); err != nil {
		return nil, err
	}
	if a.ExtensionObject == nil {
		return nil, missing("extensionObject")
	}
	if err := required(
		"extensionObject.objectDescription", a.ExtensionObject.ObjectDescription,
		"extensionObject.objectType", a.ExtensionObject.ObjectType); err != nil {
		return nil, err
	}
	if a.CustomerID != custID {
		return nil, kb.Errorf(kb.CodeInvalid, "Attribute customerId must be the customer in the path, %s (got %q).", custID, clip(a.CustomerID))
	}
	if strings.TrimSpace(*a.RelativeURL) == "" && strings.TrimSpace(a.Link.URL) == "" {
		return nil, kb.Errorf(kb.CodeMissing, "Attribute relativeUrl or link.url must name the reference the object is assigned to; both are empty.")
	}
	k, ok := kindOf(a.ExtensionObject.ObjectType)
	if !ok || string(k.kind) != a.ExtensionObject.ObjectType {
		return nil, kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.objectType has an invalid value %q: allowed values are %s.", clip(a.ExtensionObject.ObjectType), kindNames())
	}
	return k, nil
}

// createAssignment serves POST {custid}/assignment/{id}: it assigns the
// customer's object id, whose kind the body's objectType must name, and
// answers 201 with the assignment's id. An unknown object is 400: the
// store's CreateAssignment finds it missing.
func createAssignment(st Store) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var dto assignmentDto
		if err := web.DecodeJSON(r, &dto); err != nil {
			return err
		}
		a, err := assign(r.Context(), st, r.PathValue("custid"), r.PathValue("id"), &dto)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusCreated, assignmentResult{AssignmentID: a.ID, Successful: true, Errors: []web.ErrorModel{}})
	}
}

// assign checks the assignment dto of the customer's object objectID and
// stores it.
func assign(ctx context.Context, st kb.ERMStore, custID, objectID string, dto *assignmentDto) (kb.Assignment, error) {
	k, err := dto.check(custID)
	if err != nil {
		return kb.Assignment{}, err
	}
	if err := checkObjectKind(ctx, st, custID, objectID, k); err != nil {
		return kb.Assignment{}, err
	}
	body, err := json.Marshal(dto)
	if err != nil {
		return kb.Assignment{}, fmt.Errorf("encode assignment: %w", err)
	}
	a, err := st.CreateAssignment(ctx, kb.Assignment{
		ID:          kb.NewUUID(),
		CustomerID:  custID,
		ObjectID:    objectID,
		ObjectKind:  k.kind,
		RelativeURL: strings.TrimSpace(*dto.RelativeURL),
		LinkURL:     strings.TrimSpace(dto.Link.URL),
		Created:     time.Now().UTC(),
		Body:        body,
	})
	if err != nil {
		return kb.Assignment{}, unknownObject(err, objectID)
	}
	return a, nil
}

// unknownObject turns the store's "not found" of the object to assign
// into a 400: the specification lists no 404 for this operation (the
// object is part of the request, like a body member).
func unknownObject(err error, objectID string) error {
	if kb.ErrorCode(err) == kb.CodeNotFound {
		return &kb.Error{Code: kb.CodeInvalid, Message: fmt.Sprintf("Path id %s is none of the customer's objects: assign an existing administrative access, contact, external document or license.", clip(objectID)), Err: err}
	}
	return err
}

// checkObjectKind checks that the customer's object id, if it has one, is
// of kind k: 400 when it is of another kind. The store does not compare
// the kinds (CreateAssignment takes the object's own); whether the object
// exists at all is CreateAssignment's check, in its transaction.
func checkObjectKind(ctx context.Context, st kb.ERMStore, custID, id string, k *kind) error {
	_, err := st.ERMObject(ctx, custID, k.kind, id)
	if kb.ErrorCode(err) != kb.CodeNotFound {
		return err
	}
	for _, other := range kinds {
		if other == k {
			continue
		}
		_, err := st.ERMObject(ctx, custID, other.kind, id)
		switch kb.ErrorCode(err) {
		case 0:
			return kb.Errorf(kb.CodeInvalid, "Attribute extensionObject.objectType must be %s, the type of object %s (got %q).", other.kind, id, k.kind)
		case kb.CodeNotFound:
		default:
			return err
		}
	}
	return nil
}

// listAssignments serves GET {custid}/assignment: a page of the customer's
// assignments, oldest first, optionally only those of one object
// (objectid), of one object type (objecttype) or to one reference
// (relativeurl).
func listAssignments(st Store) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := web.NewQuery(r)
		p, err := web.Page(q, defaultCount)
		if err != nil {
			return err
		}
		aq := kb.AssignmentQuery{ObjectID: q.Get("objectid"), RelativeURL: q.Get("relativeurl"), Page: p}
		if t := q.Get("objecttype"); t != "" {
			k, ok := kindOf(t)
			if !ok {
				return kb.Errorf(kb.CodeInvalid, "Parameter objecttype has an invalid value %q: allowed values are %s.", clip(t), kindNames())
			}
			aq.ObjectKind = k.kind
		}
		list, err := st.Assignments(r.Context(), r.PathValue("custid"), aq)
		if err != nil {
			return err
		}
		out := listAnswer[assignmentItem]{TotalResults: list.Total, Items: make([]assignmentItem, 0, len(list.Assignments))}
		for _, a := range list.Assignments {
			item := assignmentItem{ID: a.ID, ObjectID: a.ObjectID, DateCreated: answerTime(a.Created)}
			if err := json.Unmarshal(a.Body, &item.assignmentDto); err != nil {
				return fmt.Errorf("decode stored assignment %s: %w", a.ID, err)
			}
			out.Items = append(out.Items, item)
		}
		return web.WriteJSON(w, http.StatusOK, out)
	}
}

// deleteAssignment serves DELETE {custid}/assignment/{id}.
func deleteAssignment(st Store) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id := r.PathValue("id")
		if err := st.DeleteAssignment(r.Context(), r.PathValue("custid"), id); err != nil {
			return err
		}
		return writeResult(w, http.StatusOK, id)
	}
}
