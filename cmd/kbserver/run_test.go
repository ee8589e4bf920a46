package main

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// result is what one run of the command line produced.
type result struct {
	code   int // the exit status main would use
	stdout string
	stderr string
}

// invocation describes one run.
type invocation struct {
	args  []string
	stdin string
	env   map[string]string
	ctx   context.Context
}

func runCLI(t *testing.T, inv invocation) result {
	t.Helper()
	ctx := inv.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	var stdout, stderr bytes.Buffer
	getenv := func(k string) string { return inv.env[k] }
	err := run(ctx, inv.args, getenv, strings.NewReader(inv.stdin), &stdout, &stderr)
	r := result{}
	if err != nil {
		r.code = reportError(&stderr, err)
	}
	r.stdout, r.stderr = stdout.String(), stderr.String()
	return r
}

// kbs runs kbserver with args and no input.
func kbs(t *testing.T, args ...string) result {
	t.Helper()
	return runCLI(t, invocation{args: args})
}

func (r result) mustSucceed(t *testing.T, what string) result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", what, r.code, r.stdout, r.stderr)
	}
	return r
}

// tempDB returns the --db value of a new, empty store of the test run's
// kind (package testdb): a SQLite file path or a postgres:// URL.
func tempDB(t *testing.T) string { return testdb.NewDSN(t) }

// checker is the customer whose view the tests read the store in.
const checker = "checker"

// openDB opens a database the command line wrote, for checks, and makes
// sure it has the customer checker (whose own vendor Vendors lists).
func openDB(t *testing.T, db string) kb.Store {
	t.Helper()
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, db))
	if _, err := st.AddCustomer(t.Context(), checker, "Checker"); err != nil && kb.ErrorCode(err) != kb.CodeDuplicate {
		t.Fatal(err)
	}
	return st
}

// number returns the number after label in a summary ("  rows read  12").
func number(t *testing.T, out, label string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(label) + `\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q in output:\n%s", label, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func TestHelp(t *testing.T) {
	type tc struct {
		args []string
		want []string
	}
	cases := []tc{
		{[]string{"help"}, []string{"Usage:", "Commands:", "serve", "import kbart", "apikey revoke", "--db DB", "postgres:// URL", "Examples:"}},
		{[]string{"--help"}, []string{"Usage:", "Commands:"}},
		{[]string{"-h"}, []string{"Usage:", "Commands:"}},
		{[]string{"import", "--help"}, []string{"import kbart"}},
		{[]string{"help", "apikey"}, []string{"apikey add", "apikey revoke"}},
		{[]string{"customer", "-h"}, []string{"customer add"}},
	}
	for _, cmd := range commands() {
		words := strings.Fields(cmd.name)
		want := []string{"Usage:", "kbserver " + cmd.name, "Examples:", "kbserver " + cmd.name}
		cases = append(cases,
			tc{append([]string{"help"}, words...), want},
			tc{append(words, "--help"), want},
			tc{append(words, "-h"), want},
		)
		if cmd.usesDB {
			cases = append(cases, tc{append([]string{"--db", "x.db"}, append(words, "--help")...), append(want, "--db database", "a SQLite file path", "postgres:// URL")})
		}
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := kbs(t, c.args...)
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("help lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	db := tempDB(t)
	cases := []struct {
		args []string
		want string // in stderr
	}{
		{nil, "no command given"},
		{[]string{"frobnicate"}, `unknown command "frobnicate": use one of serve, import, changes, retired, vacuum, customer, apikey, proxy, profile, package, feed, note, export, gen, help`},
		{[]string{"import"}, "import needs a subcommand: kbart"},
		{[]string{"import", "csv"}, `unknown subcommand "csv" of import`},
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"serve", "--nope"}, "flag provided but not defined: -nope"},
		{[]string{"serve", "extra"}, `unexpected argument "extra"`},
		{[]string{"serve", "--db", db, "--search-wait", "0s"}, "--search-wait must be between 1s and 10m (got 0s)"},
		{[]string{"serve", "--search-index=false"}, "flag provided but not defined: -search-index"},
		{[]string{"help", "frobnicate"}, `no help for "frobnicate"`},
		{[]string{"import", "kbart", "--db", db, "--package", "P", "f.txt"}, "--vendor is required"},
		{[]string{"import", "kbart", "--db", db, "--vendor", "V", "f.txt"}, "--package is required"},
		{[]string{"import", "kbart", "--db", db, "--vendor", "V", "--package", "P"}, "no FILE given"},
		{[]string{"import", "kbart", "--db", db, "--vendor", "V", "--package", "P", "--content-type", "journal", "f.txt"},
			`--content-type "journal" is not valid: use one of ejournal, ebook, aggregatedfulltext, abstractandindex, print, unknown, onlinereference`},
		{[]string{"import", "kbart", "--db", db, "--vendor", "V", "--package", "P", "--package-type", "Custom", "f.txt"},
			`--package-type "Custom" is not valid: use one of Complete, Selectable, Variable`},
		{[]string{"import", "kbart", "--db", db, "--vendor", "V", "--package", "P", "-", "-"}, "standard input (-) can be read only once"},
		{[]string{"customer", "add", "--db", db}, "CUSTID is missing"},
		{[]string{"customer", "add", "--db", db, "a", "b"}, `unexpected argument "b"`},
		{[]string{"apikey", "add", "--db", db}, "CUSTID is missing"},
		{[]string{"apikey", "add", "--db", db, "c", "--key", "short"}, "--key: the key is too short"},
		{[]string{"apikey", "revoke", "--db", db}, "KEY is missing"},
		{[]string{"gen", "--db", db, "--titles", "0"}, "--titles must be between 1 and"},
		{[]string{"gen", "--db", db, "--titles", "x"}, `invalid value "x" for flag -titles`},
		{[]string{"gen", "kbart", "--rows", "-1"}, "--rows must be between 0 and"},
		{[]string{"gen", "kbart", "--db", db}, "flag provided but not defined: -db"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := kbs(t, c.args...)
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\nstderr:\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, r.stderr)
			}
			if !strings.Contains(r.stderr, "Run 'kbserver help") {
				t.Errorf("stderr has no help hint:\n%s", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout: %q", r.stdout)
			}
		})
	}
}

// TestUnreachablePostgres checks that a postgres:// URL (given as --db,
// before or after the command, or as KBSERVER_DB) whose server does not
// answer fails with a message naming the database, never its password.
func TestUnreachablePostgres(t *testing.T) {
	const password = "s3cret-pw"
	for _, inv := range []invocation{
		{args: []string{"--db", "postgres://kb:" + password + "@127.0.0.1:1/kbname", "customer", "add", "c"}},
		{args: []string{"customer", "add", "c", "--db", "postgresql://kb:" + password + "@127.0.0.1:1/kbname"}},
		{args: []string{"serve", "--addr", "127.0.0.1:0"}, env: map[string]string{"KBSERVER_DB": "POSTGRES://kb:" + password + "@127.0.0.1:1/kbname"}},
	} {
		r := runCLI(t, inv)
		if r.code != 1 || !strings.Contains(r.stderr, "postgres") || !strings.Contains(r.stderr, "kbname") || !strings.Contains(r.stderr, "127.0.0.1") {
			t.Errorf("%q %v: exit %d, want 1 and a message naming the database; stderr %q", inv.args, inv.env, r.code, r.stderr)
		}
		if strings.Contains(r.stderr+r.stdout, password) {
			t.Errorf("%q %v: the output shows the password: %q", inv.args, inv.env, r.stderr)
		}
	}
}

// TestEmptyDB checks that an empty --db is a usage error, not the default
// file nor an attempt to open "".
func TestEmptyDB(t *testing.T) {
	for _, args := range [][]string{
		{"--db", "", "customer", "add", "c"},
		{"customer", "add", "c", "--db", " "},
		{"serve", "--db", "", "--addr", "127.0.0.1:0"},
	} {
		r := kbs(t, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--db is empty") {
			t.Errorf("%q: exit %d, want 2 and \"--db is empty\"; stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestDBFlag checks that --db is read before and after the command and
// from KBSERVER_DB.
func TestDBFlag(t *testing.T) {
	db := tempDB(t)
	kbs(t, "--db", db, "customer", "add", "before").mustSucceed(t, "--db before")
	kbs(t, "customer", "add", "after", "--db", db).mustSucceed(t, "--db after")
	runCLI(t, invocation{args: []string{"customer", "add", "env"}, env: map[string]string{"KBSERVER_DB": db}}).mustSucceed(t, "KBSERVER_DB")
	// The flag wins over the environment.
	other := tempDB(t)
	runCLI(t, invocation{args: []string{"--db", other, "customer", "add", "flag"}, env: map[string]string{"KBSERVER_DB": db}}).mustSucceed(t, "flag over env")

	st := openDB(t, db)
	for _, id := range []string{"before", "after", "env"} {
		if _, err := st.Customer(t.Context(), id); err != nil {
			t.Errorf("customer %q: %v", id, err)
		}
	}
	if _, err := st.Customer(t.Context(), "flag"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("customer flag went to KBSERVER_DB: %v", err)
	}
}

func TestCustomerAndAPIKeys(t *testing.T) {
	db := tempDB(t)
	r := kbs(t, "customer", "add", "lib1", "--name", "Library One", "--db", db).mustSucceed(t, "customer add")
	if !strings.Contains(r.stdout, `"lib1" (Library One)`) || !regexp.MustCompile(`vendor has id \d+`).MatchString(r.stdout) {
		t.Errorf("customer add printed:\n%s", r.stdout)
	}
	if r := kbs(t, "customer", "add", "lib1", "--db", db); r.code != 1 || !strings.Contains(r.stderr, "already exists") {
		t.Errorf("duplicate customer: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := kbs(t, "customer", "add", "bad/id", "--db", db); r.code != 1 {
		t.Errorf("customer id with '/': exit %d, stderr %q", r.code, r.stderr)
	}

	r = kbs(t, "apikey", "add", "lib1", "--db", db).mustSucceed(t, "apikey add")
	key := strings.TrimSpace(r.stdout)
	if len(key) < 40 || strings.ContainsAny(key, " \n") {
		t.Fatalf("apikey add printed %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "cannot be shown again") {
		t.Errorf("no warning that the key is shown once: %q", r.stderr)
	}
	const chosen = "my-chosen-key-0123456789"
	r = kbs(t, "apikey", "add", "--key", chosen, "lib1", "--db", db).mustSucceed(t, "apikey add --key")
	if strings.TrimSpace(r.stdout) != chosen {
		t.Errorf("apikey add --key printed %q", r.stdout)
	}
	if r := kbs(t, "apikey", "add", "nobody", "--db", db); r.code != 1 || !strings.Contains(r.stderr, `customer "nobody" does not exist`) {
		t.Errorf("key for unknown customer: exit %d, stderr %q", r.code, r.stderr)
	}

	st := openDB(t, db)
	for _, k := range []string{key, chosen} {
		if key, err := st.LookupAPIKey(t.Context(), kb.HashAPIKey(k)); err != nil || key.CustomerID != "lib1" {
			t.Fatalf("key %q: %+v, %v", k, key, err)
		}
	}

	kbs(t, "apikey", "revoke", key, "--db", db).mustSucceed(t, "apikey revoke")
	runCLI(t, invocation{args: []string{"apikey", "revoke", "-", "--db", db}, stdin: chosen + "\n"}).mustSucceed(t, "apikey revoke -")
	for _, k := range []string{key, chosen} {
		if _, err := st.LookupAPIKey(t.Context(), kb.HashAPIKey(k)); kb.ErrorCode(err) != kb.CodeUnauthenticated {
			t.Errorf("revoked key %q still works: %v", k, err)
		}
	}
	if r := kbs(t, "apikey", "revoke", key, "--db", db); r.code != 1 || !strings.Contains(r.stderr, "no such API key") {
		t.Errorf("second revoke: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestReportError checks the exit statuses main uses.
func TestReportError(t *testing.T) {
	var buf bytes.Buffer
	if code := reportError(&buf, io.ErrUnexpectedEOF); code != 1 || !strings.Contains(buf.String(), "kbserver: unexpected EOF") {
		t.Errorf("plain error: %d %q", code, buf.String())
	}
	buf.Reset()
	if code := reportError(&buf, usageErrorf("serve", "bad")); code != 2 || !strings.Contains(buf.String(), "kbserver help serve") {
		t.Errorf("usage error: %d %q", code, buf.String())
	}
	buf.Reset()
	if code := reportError(&buf, &usageError{msg: "x", reported: true}); code != 2 || buf.Len() != 0 {
		t.Errorf("reported usage error: %d %q", code, buf.String())
	}
}
