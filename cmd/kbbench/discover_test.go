package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestDiscoverToggleable checks that resource/put only toggles titles it
// can put back with {"isSelected": …}: none with a customisation of the
// customer's, none of a custom package.
func TestDiscoverToggleable(t *testing.T) {
	s := newTestServer(t)
	ctx := context.Background()
	st := s.st
	o := options{url: s.url, custID: "demo", key: s.key, timeout: 10 * time.Second, count: 25}
	a := newAPIClient(o)
	var pl packageList
	if err := a.do(ctx, http.MethodGet, "packages?count=100&selection=selected", nil, &pl); err != nil {
		t.Fatal(err)
	}
	var p packageRef
	for _, x := range pl.PackagesList {
		if x.PackageType != "Complete" && x.TitleCount >= 5 {
			p = x
			break
		}
	}
	if p.PackageID == 0 {
		t.Fatal("no selected package that is not Complete")
	}
	var tl titleList
	if err := a.do(ctx, http.MethodGet, fmt.Sprintf("vendors/%d/packages/%d/titles?count=100", p.VendorID, p.PackageID), nil, &tl); err != nil {
		t.Fatal(err)
	}
	udf := [5]string{"Room 4"}
	customised := map[string]kb.ResourceUpdate{
		"custom coverage":    {Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2005-01-01"}}},
		"hidden":             {Selected: true, Hidden: true},
		"user-defined field": {Selected: true, UserDefined: udf},
		"embargo":            {Selected: true, CustomEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}},
		"coverage statement": {Selected: true, CoverageStatement: "Vols. 1-3"},
	}
	skip := map[[2]int64]string{}
	i := 0
	for what, u := range customised {
		id := tl.Titles[i].TitleID
		i++
		if err := st.UpdateResource(ctx, "demo", p.VendorID, p.PackageID, id, u); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		skip[[2]int64{p.PackageID, id}] = what
	}
	c, err := st.Customer(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	custom, err := st.CreateCustomPackage(ctx, "demo", c.VendorID, kb.CustomPackage{Name: "AAA Local Collection", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	ct, err := st.CreateCustomTitle(ctx, "demo", c.VendorID, custom, kb.CustomTitle{TitleFields: kb.TitleFields{Name: "Local Notes", PubType: kb.ResourceJournal}})
	if err != nil {
		t.Fatal(err)
	}
	skip[[2]int64{custom, ct}] = "custom package"

	d, err := discover(ctx, a, o, []string{opResourcePut})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.resources) == 0 {
		t.Fatal("no resource to toggle discovered")
	}
	seen := map[int64]bool{}
	for _, id := range d.titles {
		seen[id] = true
	}
	for key, what := range skip {
		if !seen[key[1]] {
			t.Errorf("%s: title %d not discovered at all: the test proves nothing", what, key[1])
		}
	}
	for _, r := range d.resources {
		if what, ok := skip[[2]int64{r.packageID, r.titleID}]; ok {
			t.Errorf("resource %d/%d (%s) is toggled", r.packageID, r.titleID, what)
		}
	}
}

// TestResourcePutLeavesNoTrace runs resource/put and checks that the
// customer's title-level rows are exactly as before.
func TestResourcePutLeavesNoTrace(t *testing.T) {
	s := newTestServer(t)
	db := testdb.DB(t, s.db)
	// The customer's title-level rows, one line each. Flags are tested as
	// conditions: SQLite stores them as integers, PostgreSQL as booleans.
	rows := func() string {
		r, err := db.Query(`SELECT package_id, title_id,
				CASE WHEN selected IS NULL THEN 'null' WHEN selected THEN '1' ELSE '0' END,
				CASE WHEN hidden THEN '1' ELSE '0' END
			FROM customer_resources WHERE customer_id = 'demo' ORDER BY package_id, title_id`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var out strings.Builder
		for r.Next() {
			var p, tid int64
			var selected, hidden string
			if err := r.Scan(&p, &tid, &selected, &hidden); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%d/%d=%s,%s\n", p, tid, selected, hidden)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	before := rows()
	jsonFile := filepath.Join(t.TempDir(), "out.json")
	_, stderr, err := runBench("--url", s.url, "--key", s.key, "--mix", "resource/put", "--clients", "2",
		"--duration", "300ms", "--warmup", "0", "--json", jsonFile)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var r report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Totals.Requests < 4 || r.Totals.Errors != 0 {
		t.Fatalf("resource/put: %+v", r.Totals)
	}
	if after := rows(); after != before {
		t.Errorf("title-level rows changed by %d puts:\nbefore %s\nafter  %s", r.Totals.Requests, before, after)
	}
}
