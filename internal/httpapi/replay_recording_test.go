package httpapi_test

import (
	"bufio"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The recorded traffic of the hosted holdings service
// (shared/reference/holdings-recorded-traffic.txt in a parent directory):
// its reader and the kinds of exchange it holds.

// recordingFile is the recording's path under the shared directory.
const recordingFile = "reference/holdings-recorded-traffic.txt"

// recordedKinds is the number of kinds of exchange in the recording:
// computed from the file, written here so that a changed file is noticed.
const recordedKinds = 30

// recordedCustomer is the customer id the recording's paths carry.
const recordedCustomer = "TEST_CUSTOMER_ID"

// exchange is one recorded request and its answer.
type exchange struct {
	name    string // the recording it came from, e.g. "get-provider-not-found.yml"
	method  string
	path    string // the path, e.g. /rm/rmaccounts/TEST_CUSTOMER_ID/vendors/19
	query   string // the raw query, without "?"
	reqBody string // "" for none
	status  int
	body    string // "" for none
}

// numericSegment is a path segment that is an id.
var numericSegment = regexp.MustCompile(`/[0-9]+(/|$)`)

// kind names the kind of an exchange: the method, the path with the
// customer as {custid} and numeric ids as {id}, and the status, e.g.
// "GET /rm/rmaccounts/{custid}/vendors/{id} 404".
func (e exchange) kind() string {
	p := strings.Replace(e.path, "/rm/rmaccounts/"+recordedCustomer, "/rm/rmaccounts/{custid}", 1)
	for numericSegment.MatchString(p) {
		p = numericSegment.ReplaceAllString(p, "/{id}$1")
	}
	return fmt.Sprintf("%s %s %d", e.method, p, e.status)
}

// sharedDir returns the team's shared directory: the first "shared" that
// holds the recording in a parent directory of the module root (found by
// walking up to go.mod), the sibling of the checkout or of the directory
// that holds it (a git worktree's), as realdata finds the KBART corpus.
// When there is none the test is skipped, or fails under CI=true.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		shared := filepath.Join(d, "shared")
		if _, err := os.Stat(filepath.Join(shared, recordingFile)); err == nil {
			return shared
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	msg := fmt.Sprintf("the recorded traffic shared/%s is absent from every parent directory of %s: skipping the replay", recordingFile, dir)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// readRecording reads every exchange of the recording, in file order.
// Its format: blocks that start with "### <name>.yml", then a line
// "METHOD URL", and lines "REQBODY: …", "STATUS: <code> <text>",
// "HDR: …" and "BODY: …".
func readRecording(t *testing.T) []exchange {
	t.Helper()
	path := filepath.Join(sharedDir(t), recordingFile)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []exchange
	var cur *exchange
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "### "):
			out = append(out, exchange{name: strings.TrimSpace(strings.TrimPrefix(l, "### "))})
			cur = &out[len(out)-1]
		case cur == nil || l == "":
		case cur.method == "":
			method, raw, ok := strings.Cut(l, " ")
			u, err := url.Parse(raw)
			if !ok || err != nil {
				t.Fatalf("%s:%d: want a request line, got %q", path, line, l)
			}
			cur.method, cur.path, cur.query = method, u.Path, u.RawQuery
		case strings.HasPrefix(l, "REQBODY:"):
			cur.reqBody = strings.TrimSpace(strings.TrimPrefix(l, "REQBODY:"))
		case strings.HasPrefix(l, "STATUS:"):
			code, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(l, "STATUS:")), " ")
			if cur.status, err = strconv.Atoi(code); err != nil {
				t.Fatalf("%s:%d: bad status line %q", path, line, l)
			}
		case strings.HasPrefix(l, "BODY:"):
			cur.body = strings.TrimSpace(strings.TrimPrefix(l, "BODY:"))
		case strings.HasPrefix(l, "HDR:"):
		default:
			t.Fatalf("%s:%d: unexpected line %.80q", path, line, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, e := range out {
		if e.method == "" || e.status == 0 {
			t.Fatalf("%s: exchange %s has no request line or status", path, e.name)
		}
	}
	return out
}

// recordingKinds groups the exchanges by kind, each kind's in file
// order, and lists the kinds in the order they first occur.
func recordingKinds(exs []exchange) (order []string, byKind map[string][]exchange) {
	byKind = map[string][]exchange{}
	for _, e := range exs {
		k := e.kind()
		if _, ok := byKind[k]; !ok {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], e)
	}
	return order, byKind
}

func TestExchangeKind(t *testing.T) {
	tests := []struct {
		e    exchange
		want string
	}{
		{exchange{method: "GET", path: "/rm/rmaccounts/TEST_CUSTOMER_ID/", status: 200}, "GET /rm/rmaccounts/{custid}/ 200"},
		{exchange{method: "GET", path: "/rm/rmaccounts/TEST_CUSTOMER_ID/vendors/19/packages/6581/titles/1", status: 404},
			"GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles/{id} 404"},
		{exchange{method: "POST", path: "/rm/rmaccounts/TEST_CUSTOMER_ID/vendors/123355/packages/", status: 200},
			"POST /rm/rmaccounts/{custid}/vendors/{id}/packages/ 200"},
		{exchange{method: "GET", path: "/rm/rmaccounts/TEST_CUSTOMER_ID/proxies", status: 200}, "GET /rm/rmaccounts/{custid}/proxies 200"},
	}
	for _, tt := range tests {
		if got := tt.e.kind(); got != tt.want {
			t.Errorf("kind of %s %s = %q, want %q", tt.e.method, tt.e.path, got, tt.want)
		}
	}
}
