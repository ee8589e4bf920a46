package web

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
)

// envKeys is a KeyLookup of keys named by their id, customer and
// environment: "1" is custA's production key, "2" custA's sandbox key.
type envKeys map[string]kb.APIKey

func (m envKeys) LookupAPIKey(_ context.Context, hash kb.KeyHash) (kb.APIKey, error) {
	for key, k := range m {
		if kb.HashAPIKey(key) == hash {
			return k, nil
		}
	}
	return kb.APIKey{}, kb.Errorf(kb.CodeUnauthenticated, "unknown key")
}

// stepLimiter admits the first n takes of each bucket, then asks for a
// wait of 1.2 s; it records the buckets asked.
type stepLimiter struct {
	n     int
	taken map[string]int
}

func (l *stepLimiter) TakeToken(_ context.Context, bucket string, rate float64, burst int) (time.Duration, error) {
	l.taken[bucket]++
	if l.taken[bucket] <= l.n {
		return 0, nil
	}
	return 1200 * time.Millisecond, nil
}

func TestRequireCustomerKeyEnvironment(t *testing.T) {
	keys := envKeys{
		"prod": {ID: 1, CustomerID: "custA", Environment: kb.Production},
		"sand": {ID: 2, CustomerID: "custA", Environment: kb.Sandbox},
	}
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }
	h, _ := testServer(t, 1<<20,
		Route{Pattern: "GET /default/{custid}", Handler: RequireCustomerKey(KeyAuth{Keys: keys})(ok)},
		Route{Pattern: "GET /production/{custid}", Handler: RequireCustomerKey(KeyAuth{Keys: keys, Environment: kb.Production})(ok)},
		Route{Pattern: "GET /sandbox/{custid}", Handler: RequireCustomerKey(KeyAuth{Keys: keys, Environment: kb.Sandbox})(ok)},
	)
	for _, tc := range []struct {
		path, key string
		status    int
		message   string
	}{
		{"/default/custA", "prod", 200, ""},
		{"/default/custA", "sand", 401, "The API key belongs to the sandbox environment; this is the production environment: use a production key."},
		{"/production/custA", "prod", 200, ""},
		{"/production/custA", "sand", 401, "The API key belongs to the sandbox environment; this is the production environment: use a production key."},
		{"/sandbox/custA", "sand", 200, ""},
		{"/sandbox/custA", "prod", 401, "The API key belongs to the production environment; this is the sandbox environment: use a sandbox key."},
	} {
		res, body := apitest.Do(t, apitest.Local(h), "GET", tc.path, nil, APIKeyHeader, tc.key)
		if res.StatusCode != tc.status {
			t.Errorf("%s with the %s key: %d, want %d: %s", tc.path, tc.key, res.StatusCode, tc.status, body)
			continue
		}
		if tc.status != 200 {
			if diff := cmp.Diff([]ErrorModel{{Code: kb.CodeUnauthenticated, Message: tc.message}}, decodeErrors(t, res.Header, body)); diff != "" {
				t.Errorf("%s with the %s key (-want +got):\n%s", tc.path, tc.key, diff)
			}
		}
	}
}

func TestRequireCustomerKeyRateLimit(t *testing.T) {
	keys := envKeys{
		"k1": {ID: 1, CustomerID: "custA", Environment: kb.Production},
		"k2": {ID: 2, CustomerID: "custA", Environment: kb.Production},
	}
	limiter := &stepLimiter{n: 2, taken: map[string]int{}}
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }
	auth := KeyAuth{Keys: keys, Throttle: Throttle{Limiter: limiter, Limit: Limit{Rate: 1, Burst: 2}}}
	h, _ := testServer(t, 1<<20,
		Route{Pattern: "GET /c/{custid}", Handler: RequireCustomerKey(auth)(ok)},
		Route{Pattern: "GET /h/{custid}", Handler: RequireCustomerKey(auth)(ok), HeaderErrors: true},
	)
	for i := range 2 {
		if res, _ := apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "k1"); res.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+1, res.StatusCode)
		}
	}
	res, body := apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "k1")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "2" {
		t.Fatalf("over the limit: %d, Retry-After %q; want 429 and 2 (1.2 s rounded up)", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if diff := cmp.Diff([]ErrorModel{{Code: kb.CodeTooManyRequests, Message: "API limit has been exceeded"}}, decodeErrors(t, res.Header, body)); diff != "" {
		t.Errorf("429 body (-want +got):\n%s", diff)
	}
	// A route with header errors says the same in X-Error-Message.
	res, body = apitest.Do(t, apitest.Local(h), "GET", "/h/custA", nil, APIKeyHeader, "k1")
	if res.StatusCode != 429 || res.Header.Get(ErrorMessageHeader) != RateLimitMessage || len(body) != 0 {
		t.Errorf("header-error route: %d %q %q", res.StatusCode, res.Header.Get(ErrorMessageHeader), body)
	}
	// The other key has its own bucket; a refused key (unknown, other
	// environment) takes no token.
	if res, _ := apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "k2"); res.StatusCode != 200 {
		t.Errorf("second key: %d", res.StatusCode)
	}
	apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "unknown")
	want := map[string]int{"key:1": 4, "key:2": 1}
	if diff := cmp.Diff(want, limiter.taken); diff != "" {
		t.Errorf("buckets taken from (-want +got):\n%s", diff)
	}
	if got := retryAfterSeconds(10 * time.Millisecond); got != 1 {
		t.Errorf("retryAfterSeconds(10ms) = %d, want 1", got)
	}
	if got := retryAfterSeconds(3 * time.Second); got != 3 {
		t.Errorf("retryAfterSeconds(3s) = %d, want 3", got)
	}
}

// failingLimiter's store is down.
type failingLimiter struct{}

func (failingLimiter) TakeToken(context.Context, string, float64, int) (time.Duration, error) {
	return 0, context.DeadlineExceeded
}

func TestThrottleFailsOpen(t *testing.T) {
	keys := envKeys{"k1": {ID: 1, CustomerID: "custA", Environment: kb.Production}}
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }
	var logs bytes.Buffer
	h, _ := testServer(t, 1<<20, Route{Pattern: "GET /c/{custid}", Handler: RequireCustomerKey(KeyAuth{
		Keys: keys,
		Throttle: Throttle{Limiter: failingLimiter{}, Limit: Limit{Rate: 1, Burst: 1},
			Logger: slog.New(slog.NewTextHandler(&logs, nil))},
	})(ok)})
	if res, _ := apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "k1"); res.StatusCode != 200 {
		t.Errorf("a failing limiter refused the request: %d", res.StatusCode)
	}
	if !strings.Contains(logs.String(), "rate limiter failed") {
		t.Errorf("the limiter's failure was not logged: %q", logs.String())
	}
}
