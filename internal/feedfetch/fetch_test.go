package feedfetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/realdata"
)

// realFile is the real KBART file the tests serve (1,484 rows of Wiley's).
const realFile = "ezpaarse-platforms/wiley/WILEY_FRANCE_ISTEXJOURNALS_2016-11-30_2016-12-19.txt"

// secret is the token the tests' feeds carry; no message may show it.
const secret = "s3cr3t-t0ken"

// kbart reads the real file, or skips (fails under CI=true) without it.
func kbart(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realdata.Dir(t), realFile))
	if err != nil {
		t.Fatalf("read the real KBART file: %v", err)
	}
	return b
}

// feedOf is a feed of address u with the token in a header and in the
// query.
func feedOf(u string) kb.Feed {
	return kb.Feed{URL: u + "?token=" + secret, Headers: []kb.FeedHeader{{Name: "Authorization", Value: "Bearer " + secret}}}
}

// readAll reads a fetch's body to its end and closes it.
func readAll(t *testing.T, r Result) ([]byte, error) {
	t.Helper()
	if r.Body == nil {
		t.Fatal("no body")
	}
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

// wantKind asserts that err is an *Error of kind k and status, and that
// its message shows neither the token nor the address unredacted.
func wantKind(t *testing.T, err error, k Kind, status int) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want a fetch error of kind %q", err, err, k)
	}
	if e.Kind != k || e.Status != status {
		t.Errorf("error %v: kind %q status %d, want %q %d", err, e.Kind, e.Status, k, status)
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("the message shows the token: %v", err)
	}
	if status != 0 && !strings.Contains(err.Error(), fmt.Sprint(status)) {
		t.Errorf("the message does not name the status %d: %v", status, err)
	}
	if !strings.Contains(err.Error(), "token=REDACTED") && !strings.HasPrefix(e.URL, "file:") {
		t.Errorf("the message does not name the redacted address: %v", err)
	}
}

// TestConditional: an ETag and a Last-Modified seen are sent back, and
// the answer 304 is unchanged; the token goes in its header.
func TestConditional(t *testing.T) {
	file := kbart(t)
	mod := time.Date(2024, 5, 3, 10, 0, 0, 0, time.UTC)
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		if r.Header.Get("Authorization") != "Bearer "+secret || r.URL.Query().Get("token") != secret {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/etag" {
			w.Header().Set("ETag", `"v1"`)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Write(file)
			return
		}
		http.ServeContent(w, r, "f.txt", mod, bytes.NewReader(file))
	}))
	defer srv.Close()
	ctx := t.Context()

	r, err := Fetch(ctx, srv.Client(), feedOf(srv.URL+"/etag"), Previous{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(t, r)
	if err != nil || !bytes.Equal(got, file) || r.Status != 200 || r.ETag != `"v1"` || r.Unchanged {
		t.Fatalf("first fetch: %d bytes, err %v, result %+v", len(got), err, r)
	}
	r, err = Fetch(ctx, srv.Client(), feedOf(srv.URL+"/etag"), Previous{ETag: r.ETag}, Limits{})
	if err != nil || !r.Unchanged || r.Body != nil || r.Status != http.StatusNotModified {
		t.Fatalf("ETag round trip: %+v, %v; want unchanged", r, err)
	}

	r, err = Fetch(ctx, srv.Client(), feedOf(srv.URL+"/lm"), Previous{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readAll(t, r); err != nil || !bytes.Equal(got, file) || r.LastMod != mod.Format(http.TimeFormat) {
		t.Fatalf("Last-Modified: %d bytes, err %v, result %+v", len(got), err, r)
	}
	r, err = Fetch(ctx, srv.Client(), feedOf(srv.URL+"/lm"), Previous{LastModified: r.LastMod}, Limits{})
	if err != nil || !r.Unchanged || r.Status != http.StatusNotModified {
		t.Fatalf("Last-Modified round trip: %+v, %v; want unchanged", r, err)
	}
	if gets.Load() != 4 {
		t.Errorf("%d requests, want 4", gets.Load())
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// TestGzip: an answer in gzip encoding and a .gz file served as it is
// both read as the file.
func TestGzip(t *testing.T) {
	file := kbart(t)
	z := gzipped(t, file)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/encoded" {
			if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				t.Errorf("Accept-Encoding %q", r.Header.Get("Accept-Encoding"))
			}
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(z)
	}))
	defer srv.Close()
	for _, path := range []string{"/encoded", "/f.txt.gz"} {
		r, err := Fetch(t.Context(), srv.Client(), feedOf(srv.URL+path), Previous{}, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got, err := readAll(t, r); err != nil || !bytes.Equal(got, file) {
			t.Errorf("%s: %d bytes, %v; want the file's %d", path, len(got), err, len(file))
		}
	}
}

// TestRedirects: five redirects are followed, a sixth is refused.
func TestRedirects(t *testing.T) {
	file := kbart(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/r%d", &n)
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/r%d?token=%s", n-1, secret), http.StatusFound)
			return
		}
		w.Write(file)
	}))
	defer srv.Close()
	r, err := Fetch(t.Context(), srv.Client(), feedOf(srv.URL+"/r5"), Previous{}, Limits{})
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	if got, err := readAll(t, r); err != nil || !bytes.Equal(got, file) {
		t.Errorf("5 redirects: %d bytes, %v", len(got), err)
	}
	_, err = Fetch(t.Context(), srv.Client(), feedOf(srv.URL+"/r6"), Previous{}, Limits{})
	wantKind(t, err, KindRedirects, 0)
}

// TestFailures: each fault of the server is a failure of its kind, whose
// message names the status and the redacted address.
func TestFailures(t *testing.T) {
	file := kbart(t)
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/404":
			http.NotFound(w, r)
		case "/401":
			http.Error(w, "token "+secret+" refused", http.StatusUnauthorized)
		case "/500":
			http.Error(w, "oops", http.StatusInternalServerError)
		case "/html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body>Please log in</body></html>")
		case "/html-as-text":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "\ufeff  <!DOCTYPE html><html><body>Please log in</body></html>")
		case "/truncated":
			w.Header().Set("Content-Length", fmt.Sprint(len(file)+1000))
			w.Write(file)
		case "/slow":
			select { // answers nothing until the client gives up
			case <-r.Context().Done():
			case <-stop:
			}
		case "/slow-body":
			w.Header().Set("Content-Length", fmt.Sprint(len(file)))
			w.Write(file[:100])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-stop:
			}
		default:
			w.Header().Set("Content-Length", fmt.Sprint(len(file)))
			w.Write(file)
		}
	}))
	defer srv.Close()
	defer close(stop)
	ctx := t.Context()
	fetch := func(path string, lim Limits) (Result, error) {
		return Fetch(ctx, srv.Client(), feedOf(srv.URL+path), Previous{}, lim)
	}
	for _, c := range []struct {
		path   string
		kind   Kind
		status int
	}{
		{"/404", KindClient, 404},
		{"/401", KindClient, 401},
		{"/500", KindServer, 500},
		{"/html", KindHTML, 200},
		{"/html-as-text", KindHTML, 200},
	} {
		_, err := fetch(c.path, Limits{})
		wantKind(t, err, c.kind, c.status)
	}

	_, err := fetch("/slow", Limits{Timeout: 100 * time.Millisecond})
	wantKind(t, err, KindTimeout, 0)

	r, err := fetch("/slow-body", Limits{Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, r)
	wantKind(t, err, KindTimeout, 200)

	r, err = fetch("/truncated", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, r)
	wantKind(t, err, KindTruncated, 200)

	_, err = fetch("/f.txt", Limits{MaxBytes: int64(len(file) - 1)})
	wantKind(t, err, KindTooLarge, 200)

	stopped, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Fetch(stopped, srv.Client(), feedOf(srv.URL+"/f.txt"), Previous{}, Limits{})
	wantKind(t, err, KindCanceled, 0)
}

// TestTooLargeStream: a gzip answer, whose length is not known before,
// stops at the limit of decompressed bytes.
func TestTooLargeStream(t *testing.T) {
	file := kbart(t)
	z := gzipped(t, file)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(z)
	}))
	defer srv.Close()
	r, err := Fetch(t.Context(), srv.Client(), feedOf(srv.URL), Previous{}, Limits{MaxBytes: int64(len(file) - 1)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, r)
	wantKind(t, err, KindTooLarge, 200)
}

// TestTLS: a certificate the client does not trust is a TLS failure.
func TestTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.StartTLS()
	defer srv.Close()
	_, err := Fetch(t.Context(), &http.Client{}, feedOf(srv.URL), Previous{}, Limits{})
	wantKind(t, err, KindTLS, 0)
}

// TestLocalFile: a file:// address reads the file, its modification time
// standing for Last-Modified; a gzip file is decompressed.
func TestLocalFile(t *testing.T) {
	file := kbart(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(plain, file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain+".gz", gzipped(t, file), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, plain + ".gz"} {
		r, err := Fetch(t.Context(), nil, kb.Feed{URL: "file://" + p}, Previous{}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := readAll(t, r); err != nil || !bytes.Equal(got, file) || r.LastMod == "" || r.Status != 0 {
			t.Fatalf("%s: %d bytes, %v, %+v", p, len(got), err, r)
		}
		again, err := Fetch(t.Context(), nil, kb.Feed{URL: "file://" + p}, Previous{LastModified: r.LastMod}, Limits{})
		if err != nil || !again.Unchanged {
			t.Errorf("%s again: %+v, %v; want unchanged", p, again, err)
		}
	}
	_, err := Fetch(t.Context(), nil, kb.Feed{URL: "file://" + filepath.Join(dir, "absent.txt")}, Previous{}, Limits{})
	wantKind(t, err, KindFile, 0)
	_, err = Fetch(t.Context(), nil, kb.Feed{URL: "file://" + plain}, Previous{}, Limits{MaxBytes: 10})
	wantKind(t, err, KindTooLarge, 0)
	_, err = Fetch(t.Context(), nil, kb.Feed{URL: "ftp://x.example/f.txt"}, Previous{}, Limits{})
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindAddress {
		t.Errorf("ftp: %v, want an address error", err)
	}
}
