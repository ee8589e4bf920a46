package ermapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// What other front ends of the service (the staff console, package pages)
// use: the kinds, and the service's own reading and checking of bodies,
// so that an object written from a page is checked as a request to the
// service is, with the same messages.

// Kind names an object kind: its store kind and the path segment the
// service (and the console) name it by.
type Kind struct {
	Kind kb.ERMKind
	Path string
}

// Kinds returns the object kinds in the service's order.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i, k := range kinds {
		out[i] = Kind{Kind: k.kind, Path: k.path}
	}
	return out
}

// KindByPath returns the kind named by its path segment.
func KindByPath(path string) (Kind, bool) {
	for _, k := range kinds {
		if k.path == path {
			return Kind{Kind: k.kind, Path: k.path}, true
		}
	}
	return Kind{}, false
}

// byKind returns the kind's description.
func byKind(kind kb.ERMKind) (*kind, error) {
	for _, k := range kinds {
		if k.kind == kind {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no object kind %q", kind)
}

// ReadObject decodes and checks body, a request body of the service, as
// a create (id "") or an update of the customer's object id of the kind,
// and returns the object to store, its times not set.
func ReadObject(custID string, kind kb.ERMKind, id string, body []byte) (kb.ERMObject, error) {
	k, err := byKind(kind)
	if err != nil {
		return kb.ERMObject{}, err
	}
	p := k.newPayload()
	if err := web.DecodeJSONBytes(body, p); err != nil {
		return kb.ERMObject{}, err
	}
	return checkObject(custID, k, id, p)
}

// ObjectJSON returns a stored object as the service answers a read,
// indented.
func ObjectJSON(o kb.ERMObject) ([]byte, error) {
	k, err := byKind(o.Kind)
	if err != nil {
		return nil, err
	}
	p, err := render(k, o)
	if err != nil {
		return nil, err
	}
	return json.MarshalIndent(p, "", "  ")
}

// Assign assigns the customer's object to a reference of the knowledge
// base (relativeURL, such as /vendors/5/packages/169) as the service's
// POST assignment does, with the context and access given, and returns
// the stored assignment.
func Assign(ctx context.Context, st kb.ERMStore, custID string, o kb.ERMObject, assignmentContext, access, relativeURL, application string) (kb.Assignment, error) {
	rel := strings.TrimSpace(relativeURL)
	dto := assignmentDto{AssignmentContext: assignmentContext, Access: access, CustomerID: custID, RelativeURL: &rel}
	dto.Link = &assignmentLink{Application: &assignmentApplication{Name: application}}
	dto.ExtensionObject = &assignmentExtension{ObjectDescription: o.Description, ObjectType: string(o.Kind)}
	return assign(ctx, st, custID, o.ID, &dto)
}
