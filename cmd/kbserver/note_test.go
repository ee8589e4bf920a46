package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// noteFixture imports the KBART fixture into a new database and creates
// the customers lib1 and lib2, lib2 with a custom package of one title. It
// returns the database, the imported package, two of its titles and
// lib2's custom resource.
func noteFixture(t *testing.T) (db string, pkg, title, other int64, custom kb.ResourceKey) {
	t.Helper()
	db = tempDB(t)
	kbs(t, "--db", db, "import", "kbart", "--vendor", "Test Vendor", "--package", "Test Package", "--quiet", "--allow-rejected",
		writeFile(t, "titles.txt", fixture(), false)).mustSucceed(t, "import")
	kbs(t, "--db", db, "customer", "add", "lib1").mustSucceed(t, "customer add lib1")
	kbs(t, "--db", db, "customer", "add", "lib2").mustSucceed(t, "customer add lib2")
	st := openDB(t, db)
	p, ok := packageByName(t, st, "Test Package")
	if !ok {
		t.Fatal("package not imported")
	}
	l, err := st.Titles(t.Context(), checker, kb.TitleQuery{VendorID: p.VendorID, PackageID: p.ID, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(l.Titles) < 2 {
		t.Fatalf("titles of the package: %+v, %v", l, err)
	}
	lib2, err := st.Customer(t.Context(), "lib2")
	if err != nil {
		t.Fatal(err)
	}
	custom.PackageID, err = st.CreateCustomPackage(t.Context(), "lib2", lib2.VendorID, kb.CustomPackage{Name: "Local"})
	if err != nil {
		t.Fatal(err)
	}
	custom.TitleID, err = st.CreateCustomTitle(t.Context(), "lib2", lib2.VendorID, custom.PackageID,
		kb.CustomTitle{TitleFields: kb.TitleFields{Name: "Town Gazette", PubType: kb.ResourceNewspaper}})
	if err != nil {
		t.Fatal(err)
	}
	return db, p.ID, l.Titles[0].ID, l.Titles[1].ID, custom
}

var noteAdded = regexp.MustCompile(`^Note (\d+) added to title (\d+) in package (\d+) of customer "lib1"\.\n$`)

func TestNoteCommands(t *testing.T) {
	db, pkg, title, other, _ := noteFixture(t)
	p, ti := strconv.FormatInt(pkg, 10), strconv.FormatInt(title, 10)
	add := func(args ...string) int64 {
		t.Helper()
		r := kbs(t, append([]string{"--db", db, "note", "add"}, args...)...).mustSucceed(t, "note add")
		m := noteAdded.FindStringSubmatch(r.stdout)
		if m == nil || m[2] != ti || m[3] != p {
			t.Fatalf("note add printed %q; want the new id, title %s and package %s", r.stdout, ti, p)
		}
		id, _ := strconv.ParseInt(m[1], 10, 64)
		return id
	}
	access := add("--name", "Access", "--rank", "5", "--icon", "https://lib1.example/key.png", "--icon-id", "3",
		"--alt", "key", "--hover", "Staff and students", "--link", "https://lib1.example/access", "--show-on", " pf, az ",
		"lib1", p, ti, "--text", "Campus\naccess only.")
	first := add("lib1", p, ti, "--text", "Read me first.", "--rank", "1")
	plain := add("--text", "Same rank as the first, added later.", "--rank", "1", "lib1", p, ti)

	st := openDB(t, db)
	key := kb.ResourceKey{PackageID: pkg, TitleID: title}
	got, err := st.Notes(t.Context(), "lib1", []kb.ResourceKey{key})
	if err != nil {
		t.Fatal(err)
	}
	want := []kb.Note{
		{ID: first, PackageID: pkg, TitleID: title, Rank: 1, Text: "Read me first.", ShowOn: []string{}},
		{ID: plain, PackageID: pkg, TitleID: title, Rank: 1, Text: "Same rank as the first, added later.", ShowOn: []string{}},
		{ID: access, PackageID: pkg, TitleID: title, Name: "Access", Rank: 5, Text: "Campus\naccess only.",
			IconURL: "https://lib1.example/key.png", IconID: 3, AltText: "key", HoverText: "Staff and students",
			LinkURL: "https://lib1.example/access", ShowOn: []string{"pf", "az"}},
	}
	if diff := cmp.Diff(want, got[key]); diff != "" {
		t.Errorf("stored notes (-want +got):\n%s", diff)
	}

	// The list shows the notes in order, one a line.
	r := kbs(t, "--db", db, "note", "list", "lib1", p, ti).mustSucceed(t, "note list")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "TEXT") {
		t.Fatalf("note list printed:\n%s", r.stdout)
	}
	for i, id := range []int64{first, plain, access} {
		if f := strings.Fields(lines[i+1]); len(f) < 4 || f[0] != strconv.FormatInt(id, 10) {
			t.Errorf("line %d = %q, want note %d", i+1, lines[i+1], id)
		}
	}
	if !strings.Contains(lines[3], "Access") || !strings.HasSuffix(lines[3], "Campus access only.") || !strings.Contains(lines[1], " - ") {
		t.Errorf("note list lines lack the name, the one-line text or '-' for no name:\n%s", r.stdout)
	}
	r = kbs(t, "--db", db, "note", "list", "lib1", p, strconv.FormatInt(other, 10)).mustSucceed(t, "note list of another title")
	if !strings.Contains(r.stdout, `Customer "lib1" has no notes on title`) {
		t.Errorf("note list without notes printed %q", r.stdout)
	}
	r = kbs(t, "--db", db, "note", "list", "lib2", p, ti).mustSucceed(t, "note list of lib2")
	if !strings.Contains(r.stdout, `Customer "lib2" has no notes`) {
		t.Errorf("lib2 sees lib1's notes:\n%s", r.stdout)
	}

	// Removal: another customer's note is not found; one's own goes.
	a := strconv.FormatInt(access, 10)
	if r := kbs(t, "--db", db, "note", "remove", "lib2", a); r.code != 1 || !strings.Contains(r.stderr, `customer "lib2" has no note `+a) {
		t.Errorf("removing lib1's note as lib2: exit %d, stderr %q", r.code, r.stderr)
	}
	r = kbs(t, "--db", db, "note", "remove", "lib1", a).mustSucceed(t, "note remove")
	if r.stdout != "Note "+a+` of customer "lib1" removed.`+"\n" {
		t.Errorf("note remove printed %q", r.stdout)
	}
	if r := kbs(t, "--db", db, "note", "remove", "lib1", a); r.code != 1 || !strings.Contains(r.stderr, `customer "lib1" has no note `+a) {
		t.Errorf("second remove: exit %d, stderr %q", r.code, r.stderr)
	}
	if got, _ := st.Notes(t.Context(), "lib1", []kb.ResourceKey{key}); len(got[key]) != 2 {
		t.Errorf("after remove lib1 has %d notes on the resource, want 2", len(got[key]))
	}
}

// TestNoteErrors: a resource or customer that does not exist is exit 1; a
// malformed command line or note is a usage error (exit 2); neither adds
// a note.
func TestNoteErrors(t *testing.T) {
	db, pkg, title, other, custom := noteFixture(t)
	p, ti := strconv.FormatInt(pkg, 10), strconv.FormatInt(title, 10)
	cp, ct := strconv.FormatInt(custom.PackageID, 10), strconv.FormatInt(custom.TitleID, 10)
	eleven := strings.Repeat("f,", 10) + "f"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"add", "nobody", p, ti, "--text", "x"}, 1, `customer "nobody" does not exist: create it first`},
		{[]string{"add", "lib1", "999999", ti, "--text", "x"}, 1, "package 999999 not found"},
		{[]string{"add", "lib1", cp, ct, "--text", "x"}, 1, "package " + cp + ` not found: it does not exist, or it is a custom package of a customer other than "lib1"`},
		{[]string{"add", "lib1", p, "999999", "--text", "x"}, 1, "title 999999 not found in package " + p},
		{[]string{"remove", "lib1", "999999"}, 1, `customer "lib1" has no note 999999`},
		{[]string{"remove", "nobody", "1"}, 1, `customer "nobody" does not exist`},
		{[]string{"list", "nobody", p, ti}, 1, `customer "nobody" does not exist`},

		{[]string{"add", "--text", "x"}, 2, "CUSTID, PACKAGEID and TITLEID are missing"},
		{[]string{"add", "lib1", "--text", "x"}, 2, "PACKAGEID and TITLEID are missing"},
		{[]string{"add", "lib1", p, "--text", "x"}, 2, "TITLEID is missing"},
		{[]string{"add", "lib1", p, ti, "extra", "--text", "x"}, 2, `unexpected argument "extra"`},
		{[]string{"add", "lib1", "pkg", ti, "--text", "x"}, 2, `PACKAGEID "pkg" is not an id: give a whole number of 1 or more`},
		{[]string{"add", "lib1", p, "0", "--text", "x"}, 2, `TITLEID "0" is not an id`},
		{[]string{"add", "lib1", p, ti}, 2, "Note text (noteText, --text) is required"},
		{[]string{"add", "lib1", p, ti, "--text", "  "}, 2, "Note text (noteText, --text) is required"},
		{[]string{"add", "lib1", p, ti, "--text", strings.Repeat("x", 4001)}, 2, "is 4001 characters long: at most 4000"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--name", strings.Repeat("n", 201)}, 2, "Note name (noteName, --name) is 201 characters long"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--rank", "1001"}, 2, "Note rank (rank, --rank) must be a whole number from 0 to 1000, not 1001"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--rank", "first"}, 2, `invalid value "first" for flag -rank`},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--icon", "key.png"}, 2, `Note icon URL (iconUrl, --icon) "key.png" must be an absolute http or https URL`},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--icon-id", "-1"}, 2, "Note icon id (iconId, --icon-id) must be 0 or more"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--link", "javascript:alert(1)"}, 2, "Note link URL (linkUrl, --link)"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--show-on", "pf,,az"}, 2, "Note show-on flag 2 of 3 (showOnFlags, --show-on) is empty"},
		{[]string{"add", "lib1", p, ti, "--text", "x", "--show-on", eleven}, 2, "number 11: at most 10"},
		{[]string{"remove", "lib1"}, 2, "NOTEID is missing"},
		{[]string{"remove"}, 2, "CUSTID and NOTEID are missing"},
		{[]string{"remove", "lib1", "note-1"}, 2, `NOTEID "note-1" is not an id`},
		{[]string{"remove", "lib1", "1", "2"}, 2, `unexpected argument "2"`},
		{[]string{"list", "lib1", p}, 2, "TITLEID is missing"},
		{[]string{"list", "lib1", p, "-5"}, 2, "flag provided but not defined: -5"},
		{[]string{"edit"}, 2, `unknown subcommand "edit" of note: use add, remove, list`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := kbs(t, append([]string{"--db", db, "note"}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
			if tc.code == 2 && !strings.Contains(r.stderr, "Run 'kbserver help note") {
				t.Errorf("usage error without a help hint: %q", r.stderr)
			}
		})
	}
	st := openDB(t, db)
	keys := []kb.ResourceKey{{PackageID: pkg, TitleID: title}, {PackageID: pkg, TitleID: other}, custom}
	for _, cust := range []string{"lib1", "lib2"} {
		if got, err := st.Notes(t.Context(), cust, keys); err != nil || len(got) != 0 {
			t.Errorf("refused commands left notes of %s: %+v, %v", cust, got, err)
		}
	}
}
