package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// APIKeyHeader is the request header that carries a customer's API key.
const APIKeyHeader = "x-api-key"

// KeyLookup finds the customer an API key belongs to. kb.CustomerStore
// implements it; the store compares hashes in constant time.
type KeyLookup interface {
	LookupAPIKey(ctx context.Context, hash kb.KeyHash) (kb.APIKey, error)
}

// RequireCustomerKey returns a middleware that admits a request only when its
// x-api-key header holds a key of the customer named by the path parameter
// custid. A missing or unknown key is CodeUnauthenticated (401); a valid key
// of another customer is CodeForbidden (403). The key itself is never
// logged or echoed.
func RequireCustomerKey(keys KeyLookup) Middleware {
	return func(next HandlerFunc) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			key := strings.TrimSpace(r.Header.Get(APIKeyHeader))
			if key == "" {
				return kb.Errorf(kb.CodeUnauthenticated, "Missing x-api-key header.")
			}
			owner, err := keys.LookupAPIKey(r.Context(), kb.HashAPIKey(key))
			if err != nil {
				switch kb.ErrorCode(err) {
				case kb.CodeUnauthenticated, kb.CodeNotFound:
					return &kb.Error{Code: kb.CodeUnauthenticated, Message: "Invalid APIKEY", Err: err}
				}
				return fmt.Errorf("look up API key: %w", err)
			}
			if custID := r.PathValue("custid"); owner.CustomerID != custID {
				return kb.Errorf(kb.CodeForbidden, "The API key is not authorized for customer %s.", custID)
			}
			return next(w, r.WithContext(kb.WithActor(r.Context(), owner.ID)))
		}
	}
}
