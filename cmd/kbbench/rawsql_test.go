package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestRawQueryCounts checks that the bare index query of every title
// search counts the titles the store's search finds: the exact count
// (the matches the customer sees) equals the store's total, and the bare
// count is no smaller. A custom title of another customer checks the
// visibility rule.
func TestRawQueryCounts(t *testing.T) {
	if testdb.Kind() == "postgres" {
		t.Skip("the raw queries are SQLite's (sqlite.TitleSearchSQL over FTS5), run on a SQLite file")
	}
	s := newTestServer(t)
	ctx := context.Background()
	st := s.st
	other, err := st.AddCustomer(ctx, "other", "Other Library")
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := st.CreateCustomPackage(ctx, "other", other.VendorID, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateCustomTitle(ctx, "other", other.VendorID, pkg, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Journal of Local Marine Studies", PubType: kb.ResourceJournal, Publisher: "Harbour University Press",
		Identifiers: []kb.Identifier{{ID: "0378-5955", Type: kb.IdentISSN, Subtype: kb.SubtypePrint}},
	}}); err != nil {
		t.Fatal(err)
	}
	db, err := openReadOnly(s.db, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// Texts of some generated titles, searched with the terms kbbench makes.
	src := map[kb.SearchField][]string{}
	rows, err := db.Query(`SELECT name, publisher, subjects FROM titles WHERE customer_id IS NULL AND id % 97 = 1 LIMIT 8`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name, publisher, subjects string
		if err := rows.Scan(&name, &publisher, &subjects); err != nil {
			t.Fatal(err)
		}
		src[kb.FieldTitleName] = append(src[kb.FieldTitleName], name)
		src[kb.FieldPublisher] = append(src[kb.FieldPublisher], publisher)
		var pairs [][2]string
		if err := json.Unmarshal([]byte(subjects), &pairs); err == nil && len(pairs) > 0 {
			src[kb.FieldSubject] = append(src[kb.FieldSubject], pairs[0][1])
		}
	}
	rows.Close()
	for _, q := range []string{`SELECT value FROM title_identifiers WHERE type = 0 LIMIT 3`, `SELECT value FROM title_identifiers WHERE type = 1 LIMIT 3`} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v string
			rows.Scan(&v)
			src[kb.FieldISXN] = append(src[kb.FieldISXN], v)
		}
		rows.Close()
	}

	type search struct {
		t    kb.SearchType
		f    kb.SearchField
		term string
	}
	var cases []search
	rng := rngFor(1, 0, "raw")
	for _, typ := range searchTypes {
		for _, f := range searchFields {
			for range 4 {
				cases = append(cases, search{typ, f, searchTerm(rng, typ, f, src[f])})
			}
		}
	}
	// Edge cases of the translation.
	cases = append(cases,
		search{kb.SearchContains, kb.FieldTitleName, "of"},         // a short word: a word prefix
		search{kb.SearchContains, kb.FieldTitleName, "journal of"}, // trigram and prefix together
		search{kb.SearchContains, kb.FieldTitleName, "arine stud"}, // substrings
		search{kb.SearchContains, kb.FieldPublisher, "univ press"}, //
		search{kb.SearchContains, kb.FieldSubject, "bio"},          // subjects: word prefixes only
		search{kb.SearchContains, kb.FieldTitleName, "---"},        // no word: nothing
		search{kb.SearchExactMatch, kb.FieldTitleName, "  JOURNAL of local marine-studies! "},
		search{kb.SearchExactMatch, kb.FieldPublisher, "Harbour University Press"},
		search{kb.SearchBeginsWith, kb.FieldTitleName, "Journal of"},
		search{kb.SearchBeginsWith, kb.FieldPublisher, "Birch"},
		search{kb.SearchBeginsWith, kb.FieldTitleName, "Économie"},       // accents fold
		search{kb.SearchAny, kb.FieldTitleName, "marine history"},        //
		search{kb.SearchProximity, kb.FieldTitleName, "journal studies"}, //
		search{kb.SearchExactPhrase, kb.FieldTitleName, "local marine"},  //
		search{kb.SearchAdvanced, kb.FieldTitleName, `"marine studies" OR (journal NOT review)`},
		search{kb.SearchAdvanced, kb.FieldTitleName, `jour* AND local`},
		search{kb.SearchAdvanced, kb.FieldTitleName, `(unbalanced`}, // invalid for both
		search{kb.SearchAdvanced, kb.FieldTitleName, `OR marine`},   // invalid for both
		search{kb.SearchAny, kb.FieldISXN, "03785955"},              // without the hyphen
		search{kb.SearchBeginsWith, kb.FieldISXN, "0378"},           // a prefix
		search{kb.SearchContains, kb.FieldISXN, "978"},              // every ISBN-13
		search{kb.SearchExactMatch, kb.FieldISXN, "x"},              // no identifier: nothing
	)

	checked := 0
	for _, c := range cases {
		q := kb.TitleQuery{Search: c.term, Field: c.f, Type: c.t, Page: kb.Page{Count: 25, Number: 1}}
		name := fmt.Sprintf("%s/%s %q", c.t, c.f, c.term)
		for _, cust := range []string{"demo", "other"} {
			list, serr := st.Titles(ctx, cust, q)
			exact, rerr := rawCount(ctx, db, q, cust)
			if (serr != nil) != (rerr != nil) {
				t.Errorf("%s for %s: store error %v, raw SQL error %v", name, cust, serr, rerr)
				continue
			}
			if serr != nil {
				continue
			}
			if exact != list.Total {
				t.Errorf("%s for %s: exact raw count %d, store total %d", name, cust, exact, list.Total)
			}
			bare, err := rawCount(ctx, db, q, "")
			if err != nil || bare < exact {
				t.Errorf("%s: bare count %d (err %v) below the exact count %d", name, bare, err, exact)
			}
			checked++
		}
	}
	if checked < 200 {
		t.Errorf("only %d searches compared", checked)
	}

	// The custom title counts for its customer only.
	q := kb.TitleQuery{Search: "Journal of Local Marine Studies", Field: kb.FieldTitleName, Type: kb.SearchExactMatch, Page: kb.Page{Count: 25, Number: 1}}
	for cust, want := range map[string]int{"demo": 0, "other": 1} {
		if n, err := rawCount(ctx, db, q, cust); err != nil || n != want {
			t.Errorf("custom title for %s: count %d, %v; want %d", cust, n, err, want)
		}
	}
}

func TestBuildRawQuery(t *testing.T) {
	for _, c := range []struct {
		t     kb.SearchType
		f     kb.SearchField
		term  string
		index string // the index the query must use
		match string // the FTS5 expression or the first key
	}{
		{kb.SearchContains, kb.FieldTitleName, "Marine", "title_tri", `{name} : ("Marine")`},
		{kb.SearchContains, kb.FieldTitleName, "of", "title_fts", `{name} : ("of"*)`},
		{kb.SearchContains, kb.FieldSubject, "marine biology", "title_fts", `{subjects} : ("marine"* AND "biology"*)`},
		{kb.SearchAny, kb.FieldPublisher, "oxford press", "title_fts", `{publisher} : ("oxford" OR "press")`},
		{kb.SearchProximity, kb.FieldTitleName, "a b", "title_fts", `{name} : (NEAR("a" "b", 10))`},
		{kb.SearchExactPhrase, kb.FieldSubject, "Marine Biology", "title_fts", `{subjects} : ("Marine Biology")`},
		{kb.SearchAdvanced, kb.FieldTitleName, `x OR "y z"*`, "title_fts", `{name} : ("x" OR "y z"*)`},
		{kb.SearchAdvanced, kb.FieldTitleName, `a (b)`, "title_fts", `{name} : ("a" AND ( "b" ))`},
		{kb.SearchExactMatch, kb.FieldTitleName, "The  Café!", "sort_name =", "the cafe"},
		{kb.SearchBeginsWith, kb.FieldPublisher, "Oxford U", "sort_publisher >=", "oxford u"},
		{kb.SearchBeginsWith, kb.FieldSubject, "marine bio", "title_fts", `{subjects} : ("marine bio"*)`},
		{kb.SearchExactMatch, kb.FieldISXN, "0378-5955", "norm IN", "03785955"},
		{kb.SearchBeginsWith, kb.FieldISXN, "978", "norm >=", "978"},
	} {
		r, err := buildRawQuery(kb.TitleQuery{Search: c.term, Field: c.f, Type: c.t})
		if err != nil {
			t.Errorf("%s/%s %q: %v", c.t, c.f, c.term, err)
			continue
		}
		first := fmt.Sprint(r.args[0])
		if !strings.Contains(r.ids, c.index) || !strings.Contains(first, c.match) {
			t.Errorf("%s/%s %q: ids %q, first argument %s; want %q and %q", c.t, c.f, c.term, r.ids, first, c.index, c.match)
		}
	}
	for _, term := range []string{"", "--", "!!"} {
		if r, err := buildRawQuery(kb.TitleQuery{Search: term, Type: kb.SearchContains}); err != nil || !r.none {
			t.Errorf("%q: %+v, %v; want no match", term, r, err)
		}
	}
	for _, term := range []string{"(a", "a)", "AND a", "a OR", `"a`, "()"} {
		if _, err := buildRawQuery(kb.TitleQuery{Search: term, Type: kb.SearchAdvanced}); err == nil {
			t.Errorf("advanced %q: no error", term)
		}
	}
}

func TestRunSQL(t *testing.T) {
	if testdb.Kind() == "postgres" {
		t.Skip("--sql-db runs SQLite's raw queries on a SQLite file")
	}
	s := newTestServer(t)
	for _, c := range []struct {
		name       string
		args       []string
		wantStore  bool
		wantVerify int // searches checked (per operation: --verify-totals)
	}{
		{"with store and check", []string{"--store-db", s.db, "--verify-totals", "2"}, true, 2},
		{"sql only, no check", []string{"--verify-totals", "0"}, false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			jsonFile := filepath.Join(t.TempDir(), "out.json")
			args := append([]string{"--url", s.url, "--key", s.key, "--mix", "titles", "--clients", "2",
				"--duration", "500ms", "--warmup", "0", "--sql-db", s.db, "--json", jsonFile}, c.args...)
			stdout, stderr, err := runBench(args...)
			if err != nil {
				t.Fatalf("run: %v\n%s", err, stderr)
			}
			for _, want := range []string{"Raw SQL", "HTTP / store / raw SQL"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("no %q in\n%s", want, stdout)
				}
			}
			b, err := os.ReadFile(jsonFile)
			if err != nil {
				t.Fatal(err)
			}
			var r report
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			if (r.Store != nil) != c.wantStore || r.SQL == nil || len(r.SQL.Operations) != 28 || len(r.SQL.Floor) != 28 {
				t.Fatalf("store %v, sql %+v", r.Store != nil, r.SQL)
			}
			for _, op := range r.SQL.Operations {
				if op.Requests < 1 || op.Errors != 0 {
					t.Errorf("sql operation %+v", op)
				}
			}
			for _, f := range r.SQL.Floor {
				if f.HTTPP50 <= 0 || f.SQLP50 <= 0 || f.HTTPToSQL <= 0 || (c.wantStore && f.StoreToSQL <= 0) || (!c.wantStore && f.StoreP50 != 0) {
					t.Errorf("floor %+v", f)
				}
			}
			v := r.SQL.Verify
			switch {
			case c.wantVerify == 0 && v != nil:
				t.Errorf("verify %+v without --verify-totals", v)
			case c.wantVerify > 0 && (v == nil || v.Checked < 28*c.wantVerify-4 || v.Mismatches != 0 || v.MaxTotal < 25):
				t.Errorf("verify %+v", v)
			}
		})
	}
}
