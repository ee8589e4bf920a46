package apitest

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestDoLocal(t *testing.T) {
	var got *http.Request
	var gotBody string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		b, _ := io.ReadAll(r.Body)
		gotBody = string(b)
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		}
		w.Header().Set("X-Answer", "yes")
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, "short and stout")
	})

	res, body := Do(t, Local(h), "PUT", "/things/a%2Fb?q=%FF", strings.NewReader("payload"), "x-api-key", "k", "password", "")
	if res.StatusCode != http.StatusTeapot || string(body) != "short and stout" || res.Header.Get("X-Answer") != "yes" {
		t.Errorf("answer %d %q, X-Answer %q", res.StatusCode, body, res.Header.Get("X-Answer"))
	}
	if got.Method != "PUT" || got.RequestURI != "/things/a%2Fb?q=%FF" || got.URL.RawQuery != "q=%FF" || got.Host != "example.com" || got.RemoteAddr == "" {
		t.Errorf("request %s %q, query %q, host %q, remote %q", got.Method, got.RequestURI, got.URL.RawQuery, got.Host, got.RemoteAddr)
	}
	if got.ContentLength != int64(len("payload")) || gotBody != "payload" {
		t.Errorf("body %q of length %d", gotBody, got.ContentLength)
	}
	if got.Header.Get("x-api-key") != "k" || got.Header.Values("password") != nil {
		t.Errorf("headers %v: want the key, and no password (its value was empty)", got.Header)
	}

	res, _ = Do(t, Local(h), "GET", "http://kb.example/moved", nil)
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/elsewhere" || got.Host != "kb.example" {
		t.Errorf("redirect: %d to %q, host %q; want the 302 itself, from kb.example", res.StatusCode, res.Header.Get("Location"), got.Host)
	}

	Do(t, Local(h), "POST", "/chunked", io.MultiReader(strings.NewReader("streamed")))
	if got.ContentLength != -1 || gotBody != "streamed" {
		t.Errorf("body of unknown length: ContentLength %d, body %q; want -1 and the body", got.ContentLength, gotBody)
	}
}
