package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
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

// KeyAuth is how RequireCustomerKey admits requests.
type KeyAuth struct {
	// Keys finds the key's customer and environment.
	Keys KeyLookup
	// Environment is the server's environment; only its keys are
	// admitted. "" means kb.Production.
	Environment kb.Environment
	// Throttle limits each key's requests (one bucket a key, shared by
	// every route that uses this KeyAuth).
	Throttle Throttle
}

// RequireCustomerKey returns a middleware that admits a request only when
// its x-api-key header holds a key of the server's environment for the
// customer named by the path parameter custid, and the key's rate limit
// is not used up. A missing or unknown key, or a key of the other
// environment, is CodeUnauthenticated (401); a valid key of another
// customer is CodeForbidden (403); a key over its limit is
// CodeTooManyRequests (429, with Retry-After). The key itself is never
// logged or echoed.
func RequireCustomerKey(a KeyAuth) Middleware {
	return func(next HandlerFunc) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			key := strings.TrimSpace(r.Header.Get(APIKeyHeader))
			if key == "" {
				return kb.Errorf(kb.CodeUnauthenticated, "Missing x-api-key header.")
			}
			owner, err := a.Check(r.Context(), key)
			if err != nil {
				return err
			}
			if custID := r.PathValue("custid"); owner.CustomerID != custID {
				return kb.Errorf(kb.CodeForbidden, "The API key is not authorized for customer %s.", custID)
			}
			if err := a.Take(w, r, owner.ID); err != nil {
				return err
			}
			ctx := kb.WithActor(r.Context(), owner.ID)
			if owner.At.Root != "" {
				// The customer's root proxy and versions, read with the
				// key, for the holdings service's cache of answers and
				// the search service: a request reads them once.
				ctx = kb.WithCustomerAt(ctx, owner.At)
			}
			return next(w, r.WithContext(ctx))
		}
	}
}

// Check returns the stored key of an API key when it is one of the
// server's environment: an unknown key, or a key of the other environment,
// is CodeUnauthenticated. The staff console signs in with it.
func (a KeyAuth) Check(ctx context.Context, key string) (kb.APIKey, error) {
	env := a.Environment
	if env == "" {
		env = kb.Production
	}
	owner, err := a.Keys.LookupAPIKey(ctx, kb.HashAPIKey(key))
	if err != nil {
		switch kb.ErrorCode(err) {
		case kb.CodeUnauthenticated, kb.CodeNotFound:
			return owner, &kb.Error{Code: kb.CodeUnauthenticated, Message: "Invalid APIKEY", Err: err}
		}
		return owner, fmt.Errorf("look up API key: %w", err)
	}
	if owner.Environment != env {
		return owner, kb.Errorf(kb.CodeUnauthenticated,
			"The API key belongs to the %s environment; this is the %s environment: use a %s key.",
			owner.Environment, env, env)
	}
	return owner, nil
}

// Env returns the server's environment.
func (a KeyAuth) Env() kb.Environment {
	if a.Environment == "" {
		return kb.Production
	}
	return a.Environment
}

// Take takes a token of the key's rate limit (CodeTooManyRequests, with
// Retry-After on w, when it is used up).
func (a KeyAuth) Take(w http.ResponseWriter, r *http.Request, keyID int64) error {
	return a.Throttle.take(r.Context(), w, "key:"+strconv.FormatInt(keyID, 10))
}
