// Package apitest checks the HTTP traffic of kbserver's tests against the
// API description in package api: every request a test sends and every
// answer the server gives must match the operation the description lists
// for it, so that a response field that is missing, misnamed, extra or of
// the wrong type fails the test that provoked it. It also holds Do, the
// one helper the HTTP tests send their requests with. Only tests import
// it.
package apitest

import (
	"context"
	"fmt"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/kbserver/kbserver/api"
)

// description is the loaded API description and its router.
type description struct {
	doc    *openapi3.T
	router routers.Router
}

// load reads, validates and routes the description once per test binary.
var load = sync.OnceValues(func() (*description, error) {
	// The docs page, its script and KBART files are text; kin-openapi
	// decodes only the media types it knows.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/javascript", openapi3filter.PlainBodyDecoder)
	// The KBART file of GET holdings.
	openapi3filter.RegisterBodyDecoder("text/tab-separated-values", openapi3filter.PlainBodyDecoder)
	// Google Scholar's library links files.
	openapi3filter.RegisterBodyDecoder("application/xml", openapi3filter.PlainBodyDecoder)

	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.YAML())
	if err != nil {
		return nil, fmt.Errorf("load api/openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("api/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route api/openapi.yaml: %w", err)
	}
	return &description{doc: doc, router: router}, nil
})

// Document returns the API description, loaded and validated. It fails
// the test when the description does not load or is not valid OpenAPI.
func Document(t TB) *openapi3.T {
	t.Helper()
	d, err := load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return d.doc
}

// TB is the part of testing.TB that the package uses.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
}
