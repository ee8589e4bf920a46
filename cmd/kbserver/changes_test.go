package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestChanges: the changes an import made read back with changes, by
// package and by import, as lines or JSON; retired purge forgets the state
// kept for the title the import removed.
func TestChanges(t *testing.T) {
	db := tempDB(t)
	first := writeFile(t, "first.txt", kbartFile(journal("Journal of Tests", "0317-8471", "1050-124X", "2001-01-01"),
		journal("Annals of Fixtures", "0000-0019", "2049-3630", "1999-01-01")), false)
	second := writeFile(t, "second.txt", kbartFile(journal("Journal of Tests", "0317-8471", "1050-124X", "2003-01-01")), false)
	kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", first).mustSucceed(t, "first import")
	r := kbs(t, "--db", db, "import", "kbart", "--vendor", "V", "--package", "P", second).mustSucceed(t, "second import")
	_, after, _ := strings.Cut(r.stdout, "its changes are import ")
	importID, _, _ := strings.Cut(after, ".")

	out := kbs(t, "--db", db, "changes", "--package", "1").mustSucceed(t, "changes --package").stdout
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("changes --package: %d lines, want 3 (update, remove, first import):\n%s", len(lines), out)
	}
	for i, want := range []string{"\tkb (import " + importID + ")\tresource 1/", "kb.remove", "kb.import"} {
		if !strings.Contains(strings.Join(lines, "\n"), want) {
			t.Errorf("changes --package lacks %q (line %d):\n%s", want, i, out)
		}
	}
	out = kbs(t, "--db", db, "changes", "--import", importID, "--json").mustSucceed(t, "changes --json").stdout
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil || m["importId"] == nil || m["action"] == nil {
			t.Errorf("changes --json line %q: %v", l, err)
		}
		n++
	}
	if n != 2 {
		t.Errorf("changes --import: %d changes, want 2:\n%s", n, out)
	}
	if r := kbs(t, "--db", db, "changes"); r.code != 2 || !strings.Contains(r.stderr, "choose the changes") {
		t.Errorf("changes without a choice: exit %d, stderr %q", r.code, r.stderr)
	}
	out = kbs(t, "--db", db, "retired", "purge", "--older-than", "0d").mustSucceed(t, "retired purge").stdout
	if !strings.Contains(out, "Forgot the kept state of 1 titles") {
		t.Errorf("retired purge: %q", out)
	}
	if r := kbs(t, "--db", db, "retired", "purge", "--older-than", "soon"); r.code != 2 {
		t.Errorf("retired purge with a bad age: exit %d", r.code)
	}
}
