package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// tagGroups are the three services (and the description itself) as the docs
// page shows them.
var tagGroups = []string{"Holdings and knowledge base", "Publication search", "Link resolver", "Resource management", "API description", "Pages", "Operations"}

func loadDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(YAML())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	return doc
}

// TestJSONMatchesYAML checks that the JSON form holds the same document as
// the YAML file, with the paths in the written order.
func TestJSONMatchesYAML(t *testing.T) {
	got, err := JSON()
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON, fromYAML any
	if err := json.Unmarshal(got, &fromJSON); err != nil {
		t.Fatalf("JSON() is not JSON: %v", err)
	}
	if err := yaml.Unmarshal(YAML(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	// Round-trip the YAML value through encoding/json so that both sides
	// have the same Go types (float64 numbers).
	b, err := json.Marshal(fromYAML)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, fromJSON); diff != "" {
		t.Errorf("JSON() differs from the YAML (-yaml +json):\n%s", diff)
	}

	doc := loadDoc(t)
	var order []int
	for _, p := range []string{"/rm/rmaccounts/{custid}/", "/rm/rmaccounts/{custid}/vendors", "/pf/pfaccount/{profile}/publications", "/rm/rmaccounts/{custid}/license", "/docs"} {
		if doc.Paths.Value(p) == nil {
			t.Fatalf("no path %s", p)
		}
		order = append(order, bytes.Index(got, []byte(`"`+p+`":{`)))
	}
	if !sort.IntsAreSorted(order) || order[0] < 0 {
		t.Errorf("paths are not in the written order in JSON(): offsets %v", order)
	}
}

func TestYAMLToJSONScalars(t *testing.T) {
	got, err := yamlToJSON([]byte("a: [1, 2.5, true, null, '3', x<y&z]\nb: {c: ~}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":[1,2.5,true,null,"3","x<y&z"],"b":{"c":null}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := yamlToJSON([]byte("a: [")); err == nil {
		t.Error("malformed YAML converted without error")
	}
}

// TestOperationsAreDocumented checks what every operation must carry: an
// id, a summary and a tag of one of the groups.
func TestOperationsAreDocumented(t *testing.T) {
	doc := loadDoc(t)
	groups := doc.Extensions["x-tagGroups"].([]any)
	var groupNames []string
	tagged := map[string]bool{}
	for _, g := range groups {
		m := g.(map[string]any)
		groupNames = append(groupNames, m["name"].(string))
		for _, tag := range m["tags"].([]any) {
			tagged[tag.(string)] = true
		}
	}
	if diff := cmp.Diff(tagGroups, groupNames); diff != "" {
		t.Errorf("tag groups (-want +got):\n%s", diff)
	}
	ids := map[string]bool{}
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			name := method + " " + path
			if op.OperationID == "" || ids[op.OperationID] {
				t.Errorf("%s: operationId %q is empty or not unique", name, op.OperationID)
			}
			ids[op.OperationID] = true
			if op.Summary == "" {
				t.Errorf("%s: no summary", name)
			}
			if len(op.Tags) != 1 || !tagged[op.Tags[0]] {
				t.Errorf("%s: tags %v, want one tag of a tag group", name, op.Tags)
			}
		}
	}
}

// TestResponseSchemasAreClosed walks every response schema: an object with
// properties must forbid other properties and require only properties it
// has. An object without properties must be a typed map, except the
// description documents themselves.
func TestResponseSchemasAreClosed(t *testing.T) {
	doc := loadDoc(t)
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			for status, resp := range op.Responses.Map() {
				for mt, media := range resp.Value.Content {
					where := fmt.Sprintf("%s %s %s %s", method, path, status, mt)
					if media.Schema == nil {
						t.Errorf("%s: no schema", where)
						continue
					}
					if slices.Contains(op.Tags, "API description") || mt == "text/plain" {
						continue // the description documents, the page's files, the metrics text
					}
					checkClosed(t, where, "", media.Schema, map[*openapi3.Schema]bool{})
				}
			}
		}
	}
}

// TestRequestSchemasAreClosed walks the request body schemas of the
// operations: the server refuses members it does not know, so the
// description must not allow them either.
func TestRequestSchemasAreClosed(t *testing.T) {
	doc := loadDoc(t)
	n := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			if op.RequestBody == nil {
				continue
			}
			for mt, media := range op.RequestBody.Value.Content {
				n++
				checkClosed(t, fmt.Sprintf("%s %s request %s", method, path, mt), "", media.Schema, map[*openapi3.Schema]bool{})
			}
		}
	}
	if n < 8 {
		t.Errorf("only %d request bodies of served operations; expected the holdings write side", n)
	}
}

func checkClosed(t *testing.T, where, at string, ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	t.Helper()
	s := ref.Value
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if ref.Ref != "" {
		at = ref.Ref
	}
	if s.Type.Includes("object") {
		switch {
		case len(s.Properties) > 0:
			if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has || s.AdditionalProperties.Schema != nil {
				t.Errorf("%s: object %s does not have additionalProperties: false", where, at)
			}
			for _, r := range s.Required {
				if _, ok := s.Properties[r]; !ok {
					t.Errorf("%s: object %s requires %q, which it does not list", where, at, r)
				}
			}
		case s.AdditionalProperties.Schema == nil:
			t.Errorf("%s: object %s has no properties and is no typed map", where, at)
		}
	}
	for name, p := range s.Properties {
		checkClosed(t, where, at+"."+name, p, seen)
	}
	if s.Items != nil {
		checkClosed(t, where, at+"[]", s.Items, seen)
	}
	if s.AdditionalProperties.Schema != nil {
		checkClosed(t, where, at+"{}", s.AdditionalProperties.Schema, seen)
	}
	for _, group := range [][]*openapi3.SchemaRef{s.OneOf, s.AnyOf, s.AllOf} {
		for _, sub := range group {
			checkClosed(t, where, at, sub, seen)
		}
	}
}

// TestExamplesMatchSchemas validates every response example against its
// schema.
func TestExamplesMatchSchemas(t *testing.T) {
	doc := loadDoc(t)
	n := 0
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			for status, resp := range op.Responses.Map() {
				for mt, media := range resp.Value.Content {
					examples := map[string]any{}
					if media.Example != nil {
						examples["example"] = media.Example
					}
					for name, ex := range media.Examples {
						examples[name] = ex.Value.Value
					}
					for name, ex := range examples {
						n++
						if err := media.Schema.Value.VisitJSON(ex, openapi3.EnableJSONSchema2020()); err != nil {
							t.Errorf("%s %s %s %s: example %s does not match its schema: %v", method, path, status, mt, name, err)
						}
					}
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d response examples; the description should show most answers", n)
	}
}
