// Package feedfetch fetches a feed's file (issue 37): a conditional GET
// with gzip, bounded redirects and limits on size and time, or the read
// of a local file for a file:// address, with its failures classified
// (Kind) and described by the HTTP status and the address with its
// secrets redacted (kb.RedactURL). It only fetches: checking and applying
// the file is the caller's. Standard library only.
package feedfetch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// Defaults of Limits.
const (
	DefaultMaxBytes     = 2 << 30 // 2 GiB, after decompression
	DefaultTimeout      = 30 * time.Minute
	DefaultMaxRedirects = 5
)

// Limits bound one fetch; a zero field takes its default.
type Limits struct {
	// MaxBytes is the most the file may have, decompressed.
	MaxBytes int64
	// Timeout bounds the whole fetch, the reading of the body included.
	Timeout time.Duration
	// MaxRedirects is the most redirects followed.
	MaxRedirects int
	// PublicOnly refuses file:// addresses and connections to addresses
	// that are not public (IsPublic): for an address a library chose.
	PublicOnly bool
}

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	if l.MaxRedirects <= 0 {
		l.MaxRedirects = DefaultMaxRedirects
	}
	return l
}

// Previous is what the last applied (or unchanged) run saw, for a
// conditional request.
type Previous struct{ ETag, LastModified string }

// Result is a fetch's answer. Unless Unchanged, Body is the file,
// decompressed, which the caller reads to its end and closes: reading it
// returns an *Error when it is cut short, too large or too slow.
type Result struct {
	Body      io.ReadCloser // nil when Unchanged
	Status    int           // the HTTP status; 0 for a local file
	ETag      string
	LastMod   string // Last-Modified, or a local file's modification time
	Unchanged bool   // the file has not changed since Previous
}

// Fetch fetches f's file. client is used with its own CheckRedirect
// replaced (nil: a new client); the request carries f's headers (not to
// another host a redirect names), Accept-Encoding: gzip and prev's
// validators. The error, always an *Error,
// names the status and the redacted address, never a secret.
func Fetch(ctx context.Context, client *http.Client, f kb.Feed, prev Previous, lim Limits) (Result, error) {
	lim = lim.withDefaults()
	shown := kb.RedactURL(f.URL)
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	if strings.HasPrefix(strings.ToLower(f.URL), "file:") {
		if lim.PublicOnly {
			cancel()
			return Result{}, &Error{Kind: KindAddress, URL: shown, Err: errors.New("this feed's address must be http or https: it may not read the server's files")}
		}
		r, err := fetchFile(ctx, f.URL, shown, prev, lim)
		if err != nil || r.Body == nil {
			cancel()
			return r, err
		}
		r.Body = &cancelBody{ReadCloser: r.Body, cancel: cancel}
		return r, nil
	}
	r, err := fetchHTTP(ctx, client, f, shown, prev, lim)
	if err != nil || r.Body == nil {
		cancel()
		return r, err
	}
	r.Body = &cancelBody{ReadCloser: r.Body, cancel: cancel}
	return r, nil
}

// fetchHTTP makes the conditional GET.
func fetchHTTP(ctx context.Context, client *http.Client, f kb.Feed, shown string, prev Previous, lim Limits) (Result, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return Result{}, &Error{Kind: KindAddress, URL: shown, Err: errors.New("the address is not a valid URL")}
	}
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return Result{}, &Error{Kind: KindAddress, URL: shown, Err: fmt.Errorf("the scheme %q is not http, https or file", req.URL.Scheme)}
	}
	for _, h := range f.Headers {
		req.Header.Add(h.Name, string(h.Value))
	}
	req.Header.Set("Accept-Encoding", "gzip")
	if prev.ETag != "" {
		req.Header.Set("If-None-Match", prev.ETag)
	}
	if prev.LastModified != "" {
		req.Header.Set("If-Modified-Since", prev.LastModified)
	}
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	if lim.PublicOnly {
		c = publicOnly(c)
	}
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) > lim.MaxRedirects {
			return errTooManyRedirects
		}
		if !strings.EqualFold(r.URL.Host, via[0].URL.Host) {
			// The feed's headers (a token) go to its own host only, as
			// the client drops Authorization and cookies itself.
			for _, h := range f.Headers {
				r.Header.Del(h.Name)
			}
		}
		return nil
	}
	resp, err := c.Do(req)
	if err != nil {
		return Result{}, classify(ctx, shown, 0, err)
	}
	r := Result{Status: resp.StatusCode, ETag: resp.Header.Get("ETag"), LastMod: resp.Header.Get("Last-Modified")}
	switch {
	case resp.StatusCode == http.StatusNotModified:
		resp.Body.Close()
		r.Unchanged = true
		return r, nil
	case resp.StatusCode >= 500:
		resp.Body.Close()
		return r, &Error{Kind: KindServer, Status: resp.StatusCode, URL: shown}
	case resp.StatusCode >= 400:
		resp.Body.Close()
		return r, &Error{Kind: KindClient, Status: resp.StatusCode, URL: shown}
	case resp.StatusCode != http.StatusOK:
		resp.Body.Close()
		return r, &Error{Kind: KindStatus, Status: resp.StatusCode, URL: shown}
	}
	if r.ETag != "" && r.ETag == prev.ETag && !strings.HasPrefix(r.ETag, "W/") {
		resp.Body.Close()
		r.Unchanged = true
		return r, nil
	}
	if resp.ContentLength > lim.MaxBytes && resp.Header.Get("Content-Encoding") == "" {
		resp.Body.Close()
		return r, &Error{Kind: KindTooLarge, Status: resp.StatusCode, URL: shown,
			Err: fmt.Errorf("it announces %d bytes, more than the limit of %d", resp.ContentLength, lim.MaxBytes)}
	}
	if ct := strings.ToLower(resp.Header.Get("Content-Type")); strings.HasPrefix(ct, "text/html") || strings.HasPrefix(ct, "application/xhtml") {
		resp.Body.Close()
		return r, &Error{Kind: KindHTML, Status: resp.StatusCode, URL: shown, Err: errors.New("the answer is an HTML page (" + ct + ")")}
	}
	var enc io.Reader = resp.Body
	if strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		enc = &gzipLater{r: resp.Body}
	} else if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		resp.Body.Close()
		return r, &Error{Kind: KindStatus, Status: resp.StatusCode, URL: shown, Err: fmt.Errorf("the answer's encoding %q is not gzip", ce)}
	}
	body, err := open(ctx, enc, resp.Body, shown, resp.StatusCode, lim)
	if err != nil {
		resp.Body.Close()
		return r, err
	}
	r.Body = body
	return r, nil
}

// open wraps a body: it decompresses a gzip file (a .gz served as is),
// refuses an HTML page, and enforces the size limit and classifies the
// errors of reading.
func open(ctx context.Context, enc io.Reader, closer io.Closer, shown string, status int, lim Limits) (io.ReadCloser, error) {
	b := &body{ctx: ctx, closer: closer, shown: shown, status: status, max: lim.MaxBytes}
	b.r = bufio.NewReader(&errReader{b: b, r: enc})
	head, err := b.r.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, b.wrap(err)
	}
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		z, err := gzip.NewReader(b.r)
		if err != nil {
			return nil, &Error{Kind: KindCorrupt, Status: status, URL: shown, Err: fmt.Errorf("gzip: %w", err)}
		}
		b.r = bufio.NewReader(&errReader{b: b, r: z})
	}
	if html, err := looksHTML(b.r); err != nil {
		return nil, b.wrap(err)
	} else if html {
		return nil, &Error{Kind: KindHTML, Status: status, URL: shown, Err: errors.New("the answer is an HTML page")}
	}
	return b, nil
}

// looksHTML reports whether the body starts, after a byte order mark and
// white space, with "<" (an HTML or XML page, "<!doctype html>"): a KBART
// file starts with its header's first column name.
func looksHTML(r *bufio.Reader) (bool, error) {
	// Peek no further than the first byte that tells, so that a slow
	// answer is not waited on here.
	for n := 1; n <= 512; n++ {
		head, err := r.Peek(n)
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
		if len(head) > 0 && !bytes.HasPrefix([]byte("\xef\xbb\xbf"), head) {
			return head[0] == '<', nil
		}
	}
	return false, nil
}

// gzipLater opens a gzip stream on its first read, so that a failure
// to read its header is an error of reading.
type gzipLater struct {
	r io.Reader
	z *gzip.Reader
}

func (g *gzipLater) Read(p []byte) (int, error) {
	if g.z == nil {
		z, err := gzip.NewReader(g.r)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, io.EOF // an empty body
			}
			return 0, fmt.Errorf("gzip: %w", err)
		}
		g.z = z
	}
	return g.z.Read(p)
}

// body is a fetched file being read.
type body struct {
	ctx    context.Context
	r      *bufio.Reader
	closer io.Closer
	shown  string
	status int
	max    int64
	n      int64
}

// errReader classifies the errors of the stream below a body.
type errReader struct {
	b *body
	r io.Reader
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = e.b.wrap(err)
	}
	return n, err
}

// Read reads the file, decompressed; more than the limit is an error.
func (b *body) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.max {
		return n, &Error{Kind: KindTooLarge, Status: b.status, URL: b.shown, Err: fmt.Errorf("the file has more than the limit of %d bytes", b.max)}
	}
	return n, err
}

// Close closes the answer's body.
func (b *body) Close() error { return b.closer.Close() }

// wrap classifies an error met reading the body.
func (b *body) wrap(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return classify(b.ctx, b.shown, b.status, err)
}

// cancelBody ends the fetch's time limit when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelBody) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
