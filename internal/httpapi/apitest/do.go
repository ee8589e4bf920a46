package apitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Client sends the requests of Do: an *http.Client sends them over the
// network, and Local serves them in this process.
type Client interface {
	Do(req *http.Request) (*http.Response, error)
}

// Do sends a request through c and returns the response with its whole
// body, read and closed. The request carries t's context; one that cannot
// be made, sent or read fails the test. body may be nil. header lists
// names and values in pairs ("x-api-key", key, "Accept", …); a pair whose
// value is empty is not sent, so that a test can pass "no key" as "".
func Do(t testing.TB, c Client, method, url string, body io.Reader, header ...string) (*http.Response, []byte) {
	t.Helper()
	if len(header)%2 != 0 {
		t.Fatalf("apitest.Do %s %s: header %q is not in name, value pairs", method, url, header)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, body)
	if err != nil {
		t.Fatalf("apitest.Do: %v", err)
	}
	for i := 0; i < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the body: %v", method, url, err)
	}
	return res, b
}

// Local returns a Client that serves each request with h in this process
// and answers what h wrote; it follows no redirects. h gets the request
// as a server would pass it (httptest.NewRequest): the URL holds only the
// path and query, RequestURI and RemoteAddr are set, and the host is the
// URL's, or example.com when the URL is a path such as "/vendors?count=1".
func Local(h http.Handler) Client { return local{h} }

// local is the Client of Local.
type local struct{ h http.Handler }

// Do implements Client.
func (l local) Do(r *http.Request) (*http.Response, error) {
	req := httptest.NewRequestWithContext(r.Context(), r.Method, r.URL.RequestURI(), r.Body)
	if r.URL.Host != "" {
		req.Host = r.URL.Host
	}
	req.Header = r.Header.Clone()
	req.ContentLength = r.ContentLength
	if r.ContentLength == 0 && r.Body != nil && r.Body != http.NoBody {
		req.ContentLength = -1 // a body of unknown length, sent chunked
	}
	rec := httptest.NewRecorder()
	l.h.ServeHTTP(rec, req)
	return rec.Result(), nil
}
