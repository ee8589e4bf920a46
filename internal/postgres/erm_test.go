package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestERMPostgres checks what the conformance suite does not reach and
// PostgreSQL could do otherwise than SQLite.
func TestERMPostgres(t *testing.T) {
	testERMPostgres(t, open(t))
}

// testERMPostgres: bodies come back byte for byte (jsonb would respace
// and reorder them); what PostgreSQL cannot store is CodeInvalid and
// stores nothing; case is folded for ASCII letters only, and text sorts
// in byte order, as on SQLite.
func testERMPostgres(t *testing.T, s kb.Store) {
	ctx := context.Background()
	if _, err := s.AddCustomer(ctx, "c1", "Customer 1"); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 3, 1, 9, 0, 0, 1, time.UTC)
	contact := func(id, name, desc string) kb.ERMObject {
		return kb.ERMObject{ID: id, CustomerID: "c1", Kind: kb.KindContact, Status: kb.StatusActive, Description: desc,
			Created: at, Updated: at, Body: []byte(`{ "contactPoint" : {"name":"` + name + `", "email": "x@y"} ,"a":1 }`)}
	}
	for _, o := range []kb.ERMObject{contact("c-1", "Émile", "one"), contact("c-2", "zed", "two"), contact("c-3", "ÉMILE", "three")} {
		if err := s.CreateERMObject(ctx, o); err != nil {
			t.Fatalf("CreateERMObject %s: %v", o.ID, err)
		}
		if got, err := s.ERMObject(ctx, "c1", kb.KindContact, o.ID); err != nil || string(got.Body) != string(o.Body) {
			t.Errorf("ERMObject %s: body %q, %v; want %q", o.ID, got.Body, err, o.Body)
		}
	}

	for _, tc := range []struct {
		name string
		o    kb.ERMObject
	}{
		{"U+0000 in the body", contact("c-9", `a\u0000b`, "nul")},
		{"a lone surrogate in the body", contact("c-9", `a\ud800b`, "surrogate")},
		{"NUL in the description", contact("c-9", "a", "a\x00b")},
		{"invalid UTF-8 in the description", contact("c-9", "a", "a\xffb")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := s.CreateERMObject(ctx, tc.o); kb.ErrorCode(err) != kb.CodeInvalid {
				t.Errorf("CreateERMObject: %v; want code %d", err, kb.CodeInvalid)
			}
			up := contact("c-1", "x", "x")
			up.Body, up.Description = tc.o.Body, tc.o.Description
			if err := s.UpdateERMObject(ctx, up); kb.ErrorCode(err) != kb.CodeInvalid {
				t.Errorf("UpdateERMObject: %v; want code %d", err, kb.CodeInvalid)
			}
		})
	}
	if _, err := s.ERMObject(ctx, "c1", kb.KindContact, "c-9"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("a refused object was stored: %v", err)
	}
	if got, err := s.ERMObject(ctx, "c1", kb.KindContact, "c-1"); err != nil || got.Description != "one" {
		t.Errorf("a refused update changed the object: %+v, %v", got, err)
	}

	ids := func(q kb.ERMQuery) []string {
		t.Helper()
		q.Kind, q.Page = kb.KindContact, kb.Page{Count: 10, Number: 1}
		l, err := s.ERMObjects(ctx, "c1", q)
		if err != nil {
			t.Fatalf("ERMObjects(%+v): %v", q, err)
		}
		var out []string
		for _, o := range l.Objects {
			out = append(out, o.ID)
		}
		return out
	}
	// "É" is not an ASCII letter: it matches itself only, by bytes.
	if got := ids(kb.ERMQuery{Filter: &kb.ERMFilter{Field: kb.FieldContactName, Text: "émile"}}); len(got) != 0 {
		t.Errorf("filter émile matched %v; want none (ASCII folding only)", got)
	}
	if got := ids(kb.ERMQuery{Filter: &kb.ERMFilter{Field: kb.FieldContactName, Text: "Émile"}}); len(got) != 2 || got[0] != "c-1" || got[1] != "c-3" {
		t.Errorf("filter Émile matched %v; want [c-1 c-3]", got)
	}
	// Byte order after ASCII folding: zed (z) before Émile and ÉMILE
	// (0xC3…), which fold to "Émile" and "Émile": a tie, in id order.
	if got := ids(kb.ERMQuery{Sort: []kb.ERMSort{{Field: kb.FieldContactName}}}); len(got) != 3 || got[0] != "c-2" || got[1] != "c-1" || got[2] != "c-3" {
		t.Errorf("sort by name: %v; want [c-2 c-1 c-3]", got)
	}
}
