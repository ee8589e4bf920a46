package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/testdb"
)

// TestListCommands: customer, apikey, profile and package list print what
// the knowledge base holds, with a header line.
func TestListCommands(t *testing.T) {
	db := tempDB(t)
	kbs(t, "--db", db, "customer", "add", "lib-b", "--name", "Branch").mustSucceed(t, "customer add")
	kbs(t, "--db", db, "customer", "add", "lib-a", "--name", "Main Library").mustSucceed(t, "customer add")
	kbs(t, "--db", db, "apikey", "add", "lib-a").mustSucceed(t, "apikey add")
	kbs(t, "--db", db, "profile", "add", "lib-a.main.az", "--guest").mustSucceed(t, "profile add")
	kbs(t, "--db", db, "gen", "--titles", "200").mustSucceed(t, "gen")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"customer", "list"}, []string{"CUSTID  NAME", "lib-a   Main Library", "lib-b   Branch"}},
		{[]string{"apikey", "list", "lib-a"}, []string{"ID  ENVIRONMENT  CREATED (UTC)", "production"}},
		{[]string{"profile", "list"}, []string{"lib-a.main.az  no        yes    /az/lib-a.main.az/"}},
		{[]string{"profile", "list", "lib-b"}, []string{"PROFILE"}},
		{[]string{"package", "list", "lib-a", "--count", "2"}, []string{"ID  VENDOR", "(2 of "}},
		// A name search from the command line, whose store has no search
		// engine: it tests the names itself.
		{[]string{"package", "list", "lib-a", "--search", "applied"}, []string{"ID  VENDOR", "Applied Physics"}},
	} {
		r := kbs(t, append([]string{"--db", db}, tt.args...)...).mustSucceed(t, strings.Join(tt.args, " "))
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: output lacks %q:\n%s", strings.Join(tt.args, " "), w, r.stdout)
			}
		}
	}
	if r := kbs(t, "--db", db, "apikey", "list", "nobody"); r.code != 1 || !strings.Contains(r.stderr, `customer "nobody" does not exist`) {
		t.Errorf("apikey list of a missing customer: exit %d, %q", r.code, r.stderr)
	}
}

// TestMissingDatabase: a command that reads a knowledge base refuses a
// SQLite path with no database, naming it (and its folder when that is
// missing too), and makes no file there; the commands that start one
// create it.
func TestMissingDatabase(t *testing.T) {
	if testdb.Kind() == "postgres" {
		t.Skip("about SQLite paths; the store of this run is PostgreSQL")
	}
	dir := t.TempDir()
	missing := filepath.Join(dir, "kb.db")
	noFolder := filepath.Join(dir, "nope", "kb.db")
	for _, tt := range []struct {
		db   string
		args []string
		want string
	}{
		{missing, []string{"customer", "list"}, "database " + missing + " does not exist: give the path of an existing knowledge base"},
		{noFolder, []string{"changes", "--kb"}, "database " + noFolder + " does not exist, nor does its folder " + filepath.Dir(noFolder)},
		{missing, []string{"profile", "add", "a.b.c", "--guest"}, "does not exist"},
	} {
		r := kbs(t, append([]string{"--db", tt.db}, tt.args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tt.args, r.code, r.stderr, tt.want)
		}
		if _, err := os.Stat(tt.db); err == nil {
			t.Errorf("%v made %s", tt.args, tt.db)
		}
	}
	kbs(t, "--db", missing, "customer", "add", "lib").mustSucceed(t, "customer add on a new path")
	kbs(t, "--db", missing, "customer", "list").mustSucceed(t, "customer list once the database exists")
}

// TestServeBusyPort: serve on an address in use says so and names --addr.
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := kbs(t, "serve", "--db", tempDB(t), "--addr", ln.Addr().String())
	if r.code != 1 || !strings.Contains(r.stderr, "the address is in use") || !strings.Contains(r.stderr, "--addr") {
		t.Errorf("exit %d, stderr %q; want 1 naming the address in use and --addr", r.code, r.stderr)
	}
}
