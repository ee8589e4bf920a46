package ermapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// result is the answer of a create, update or delete: the object's id,
// true, and no errors (a failure has no body).
type result struct {
	ID         string           `json:"id"`
	Successful bool             `json:"successful"`
	Errors     []web.ErrorModel `json:"errors"`
}

// writeResult answers status with the result of the object id.
func writeResult(w http.ResponseWriter, status int, id string) error {
	return web.WriteJSON(w, status, result{ID: id, Successful: true, Errors: []web.ErrorModel{}})
}

// listAnswer is the answer of a list: the number of matches and a page of
// them.
type listAnswer[T any] struct {
	TotalResults int `json:"totalResults"`
	Items        []T `json:"items"`
}

// readObject decodes the body of a create (id "") or an update of the
// object id of kind k and checks it. It returns the object to store, its
// times not set.
func readObject(r *http.Request, k *kind, id string) (kb.ERMObject, error) {
	p := k.newPayload()
	if err := web.DecodeJSON(r, p); err != nil {
		return kb.ERMObject{}, err
	}
	return checkObject(r.PathValue("custid"), k, id, p)
}

// checkObject checks a decoded body p of the customer's object id of kind
// k (id "" for a create) and returns the object to store, its times not
// set.
func checkObject(custID string, k *kind, id string, p payload) (kb.ERMObject, error) {
	f, err := checkExtension(p.ext(), k, custID, id)
	if err != nil {
		return kb.ERMObject{}, err
	}
	if err := p.check(); err != nil {
		return kb.ERMObject{}, err
	}
	p.setExt(nil)
	body, err := json.Marshal(p)
	if err != nil {
		return kb.ERMObject{}, fmt.Errorf("encode %s body: %w", k.kind, err)
	}
	return kb.ERMObject{
		ID:          id,
		CustomerID:  custID,
		Kind:        k.kind,
		Status:      f.status,
		Description: f.description,
		Body:        body,
	}, nil
}

// render returns the answer for a stored object: its payload with the
// extensionObject completed.
func render(k *kind, o kb.ERMObject) (payload, error) {
	p := k.newPayload()
	if err := json.Unmarshal(o.Body, p); err != nil {
		return nil, fmt.Errorf("decode stored %s %s: %w", o.Kind, o.ID, err)
	}
	p.setExt(&extensionObject{
		ObjectDescription: o.Description,
		ObjectType:        string(o.Kind),
		Status:            o.Status,
		CustomerID:        o.CustomerID,
		ID:                o.ID,
		DateCreated:       answerTime(o.Created),
		DateLastUpdated:   answerTime(o.Updated),
	})
	return p, nil
}

// createObject serves POST {custid}/{kind}: 201 with the new id.
func createObject(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		o, err := readObject(r, k, "")
		if err != nil {
			return err
		}
		o.ID = kb.NewUUID()
		o.Created = time.Now().UTC()
		o.Updated = o.Created
		if err := st.CreateERMObject(r.Context(), o); err != nil {
			return err
		}
		return writeResult(w, http.StatusCreated, o.ID)
	}
}

// getObject serves GET {custid}/{kind}/{id}.
func getObject(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id := r.PathValue(k.idParam)
		o, err := st.ERMObject(r.Context(), r.PathValue("custid"), k.kind, id)
		if err != nil {
			return err
		}
		p, err := render(k, o)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusOK, p)
	}
}

// updateObject serves PUT {custid}/{kind}/{id}: the body replaces the
// object's, whose creation time stays.
func updateObject(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id := r.PathValue(k.idParam)
		o, err := readObject(r, k, id)
		if err != nil {
			return err
		}
		o.Updated = time.Now().UTC()
		if err := st.UpdateERMObject(r.Context(), o); err != nil {
			return err
		}
		return writeResult(w, http.StatusOK, id)
	}
}

// deleteObject serves DELETE {custid}/{kind}/{id}; the store deletes the
// object's assignments with it.
func deleteObject(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id := r.PathValue(k.idParam)
		if err := st.DeleteERMObject(r.Context(), r.PathValue("custid"), k.kind, id); err != nil {
			return err
		}
		return writeResult(w, http.StatusOK, id)
	}
}

// listObjects serves GET {custid}/{kind}: a page of the customer's objects
// of the kind, filtered by searchfield and searchvalue (external
// documents: by url) and sorted by sort.
func listObjects(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := web.NewQuery(r)
		eq, err := listQuery(q, k)
		if err != nil {
			return err
		}
		if eq.Filter, err = searchFilter(q, k); err != nil {
			return err
		}
		url, err := web.Text(q, "url", kb.LimitURL)
		if err != nil {
			return err
		}
		if url != "" && k.search == nil {
			eq.Filter = &kb.ERMFilter{Field: kb.FieldDocumentURL, Text: url}
		}
		return writeList(w, r, st, k, eq)
	}
}

// listAssigned serves GET {custid}/license/assignment: a page of the
// licenses assigned to the reference url.
func listAssigned(st Store, k *kind) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := web.NewQuery(r)
		url, err := web.Text(q, "url", kb.LimitURL)
		if err != nil {
			return err
		}
		if url == "" {
			return kb.Errorf(kb.CodeMissing, "Parameter url is required: the reference (relativeUrl or link url of an assignment) whose licenses to list.")
		}
		eq, err := listQuery(q, k)
		if err != nil {
			return err
		}
		eq.AssignedTo = url
		return writeList(w, r, st, k, eq)
	}
}

// writeList answers a page of objects.
func writeList(w http.ResponseWriter, r *http.Request, st Store, k *kind, eq kb.ERMQuery) error {
	list, err := st.ERMObjects(r.Context(), r.PathValue("custid"), eq)
	if err != nil {
		return err
	}
	out := listAnswer[payload]{TotalResults: list.Total, Items: make([]payload, 0, len(list.Objects))}
	for _, o := range list.Objects {
		p, err := render(k, o)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, p)
	}
	return web.WriteJSON(w, http.StatusOK, out)
}
