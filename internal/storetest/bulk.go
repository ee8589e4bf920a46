package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// DB is raw SQL access to a store's database, for the tests that compare
// what two stores hold.
type DB interface {
	// Exec runs one statement.
	Exec(sql string) error
	// Dump runs a query and prints each row's values.
	Dump(query string) ([]string, error)
}

// dumpQueries read what an import writes, leaving out what differs from
// one run to the next (the import's random id, times, the store's
// identity).
var dumpQueries = []string{
	`SELECT id, name, sort_name FROM vendors ORDER BY id`,
	`SELECT id, vendor_id, name, sort_name, content_type, package_type, import_gen, kbart_extra, title_count, kbart_rows, marks_ok
		FROM packages ORDER BY id`,
	`SELECT id, name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed, subjects, contributors, match_hash,
		COALESCE(source_package_id, 0) FROM titles ORDER BY id`,
	`SELECT title_id, type, subtype, value, norm, valid FROM title_identifiers ORDER BY title_id, type, subtype, value`,
	`SELECT package_id, title_id, sort_name, pub_type, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, gen, provider_id
		FROM resources ORDER BY package_id, title_id`,
	`SELECT package_id, title_id, row_offset FROM package_marks ORDER BY package_id, title_id`,
	`SELECT object, action, before, after, package_id FROM changes ORDER BY id`,
	`SELECT version, title_id FROM title_changes ORDER BY version, title_id`,
	`SELECT name, n FROM versions WHERE name <> 'store' ORDER BY name`,
	`SELECT rows, titles_created, titles_matched, resources_added, resources_updated, resources_removed FROM imports ORDER BY id`,
}

// dump reads what db holds.
func dump(t *testing.T, db DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, q := range dumpQueries {
		rows, err := db.Dump(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		_, from, _ := strings.Cut(q, "FROM ")
		out[strings.Fields(from)[0]] = rows
	}
	return out
}

// BulkLoad checks that the bulk path of a new package's first import
// leaves the store as the staged path does: two stores are given the same
// knowledge base (some of its titles without a source package, as
// migration 014 leaves titles no package claimed), then the same new
// packages, one store by each path, then an update of the first. Their
// results and every table they write must be equal. The packages are
// larger than an import's batch, and their rows name titles of the
// knowledge base, each other's, and their own earlier rows in every way the
// identity rules know. It runs over three draws: identifiers and
// provider title_ids from spaces so small that many rows share them, and
// not.
func BulkLoad(t *testing.T, open func(t *testing.T) (kb.Store, DB)) {
	for _, c := range []struct {
		seed       uint64
		issns, ids int // how many ISSNs and provider title_ids rows draw from
	}{{22, 9_999_999, 1e9}, {1, 800, 3000}, {2, 200, 500}} {
		t.Run(fmt.Sprintf("seed %d, %d ISSNs, %d title_ids", c.seed, c.issns, c.ids), func(t *testing.T) {
			g := bulkGen{r: rand.New(rand.NewPCG(c.seed, 1)), issns: c.issns, ids: c.ids}
			bulkLoad(t, open, &g)
		})
	}
}

// side is one of the two stores a comparison gives the same imports.
type side struct {
	s  kb.Store
	db DB
}

// openSides opens the two stores of a comparison.
func openSides(t *testing.T, open func(t *testing.T) (kb.Store, DB)) [2]side {
	var sides [2]side
	for i := range sides {
		sides[i].s, sides[i].db = open(t)
	}
	return sides
}

// sameTables fails the test for each table the two stores hold
// differently after step; the second imported by path.
func sameTables(t *testing.T, sides [2]side, step, path string) {
	t.Helper()
	a, b := dump(t, sides[0].db), dump(t, sides[1].db)
	for table := range a {
		if diff := cmp.Diff(a[table], b[table]); diff != "" {
			t.Errorf("%s: %s differ (-staged +%s):\n%s", step, table, path, diff)
		}
	}
}

func bulkLoad(t *testing.T, open func(t *testing.T) (kb.Store, DB), g *bulkGen) {
	ctx := context.Background()
	sides := openSides(t, open)
	base := g.rows(3000, nil)
	other := g.rows(600, base)
	fresh := g.rows(9000, append(base, other...))
	fresh2 := g.rows(5000, append(base, fresh...))
	update := g.rows(1000, fresh)
	update = append(update, fresh[:7000]...)
	for i, sd := range sides {
		for _, p := range []struct {
			name string
			rows []Row
		}{{"Base", base}, {"Other", other}} {
			if _, err := sd.s.ImportPackage(ctx, kb.PackageSpec{VendorName: "V", PackageName: p.name, Bulk: kb.BulkOff}, Rows(p.rows)); err != nil {
				t.Fatalf("store %d: import %s: %v", i, p.name, err)
			}
		}
		if err := sd.db.Exec(`UPDATE titles SET source_package_id = NULL WHERE id % 5 = 0`); err != nil {
			t.Fatal(err)
		}
	}
	modes := [2]kb.BulkMode{kb.BulkOff, kb.BulkOn}
	for _, step := range []struct {
		vendor, name string
		rows         []Row
		bulk         bool // the step's first import of a new package
	}{
		{"V", "Fresh", fresh, true},
		{"W", "Fresh 2", fresh2, true},
		{"V", "Fresh", update, false},
	} {
		var res [2]kb.ImportResult
		for i, sd := range sides {
			spec := kb.PackageSpec{VendorName: step.vendor, PackageName: step.name, Bulk: modes[i]}
			var err error
			res[i], err = sd.s.ImportPackage(ctx, spec, Rows(step.rows))
			if err != nil {
				t.Fatalf("%s, bulk mode %d: %v", step.name, modes[i], err)
			}
			if want := step.bulk && modes[i] == kb.BulkOn; res[i].Bulk != want {
				t.Errorf("%s, bulk mode %d: took the bulk path %v, want %v", step.name, modes[i], res[i].Bulk, want)
			}
			res[i].ImportID, res[i].Bulk = 0, false
		}
		if diff := cmp.Diff(res[0], res[1]); diff != "" {
			t.Errorf("%s: results differ (-staged +bulk):\n%s", step.name, diff)
		}
		if step.bulk && res[0].ResourcesAdded == 0 {
			t.Fatalf("%s: added no resource", step.name)
		}
		sameTables(t, sides, step.name, "bulk")
		if t.Failed() {
			return
		}
		if step.name == "Fresh" && step.bulk && (res[0].TitlesRenamed == 0 || res[0].TitlesReidentified == 0 || res[0].TitlesMatched == 0) {
			t.Errorf("%s: the rows claim no title (result %+v): the test misses the claimed titles' changes", step.name, res[0])
		}
	}
}

// bulkGen draws the rows of BulkLoad's packages.
type bulkGen struct {
	r          *rand.Rand
	issns, ids int // the sizes of the spaces ISSNs and provider title_ids are drawn from
}

// rows makes n rows of a package: new titles, some with identifiers that
// are invalid or shared with another of their titles, some without any;
// some rows without a URL, most without a provider title_id; titles of
// known (another package's rows) by identifier or by name, under other
// names; and rows that repeat an earlier row's title (by provider
// title_id, far later, with other coverage), or the whole row.
func (g *bulkGen) rows(n int, known []Row) []Row {
	r := g.r
	issn := func() string {
		d := r.IntN(g.issns)
		s := fmt.Sprintf("%07d", d)
		sum := 0
		for i := range 7 {
			sum += int(s[i]-'0') * (8 - i)
		}
		c := (11 - sum%11) % 11
		check := fmt.Sprint(c)
		if c == 10 {
			check = "X"
		}
		if r.IntN(20) == 0 {
			check = fmt.Sprint((c + 1) % 10) // an invalid check digit
		}
		return s[:4] + "-" + s[4:] + check
	}
	var rows []Row
	for len(rows) < n {
		i := len(rows)
		year := 1990 + r.IntN(30)
		row := Row{Title: fmt.Sprintf("Title %d %d", r.IntN(n), r.IntN(3)), Publisher: fmt.Sprintf("Publisher %d", r.IntN(40)),
			First: fmt.Sprint(year), Type: "serial", URL: fmt.Sprintf("https://example.org/%d/%d", r.IntN(1e9), i)}
		if r.IntN(3) == 0 {
			row.URL = ""
		}
		if r.IntN(3) == 0 {
			row.ID = fmt.Sprintf("id-%d", r.IntN(g.ids))
		}
		switch k := r.IntN(20); {
		case k < 6 && len(known) > 0: // a known title, by identifier, maybe renamed
			o := known[r.IntN(len(known))]
			row.Print, row.Online = o.Print, o.Online
			if r.IntN(3) == 0 {
				row.Title = o.Title
			}
			if r.IntN(4) == 0 {
				row.Online = issn() // and an identifier more
			}
		case k < 8 && len(known) > 0: // a known title by name, publisher and type
			o := known[r.IntN(len(known))]
			row.Title, row.Publisher, row.Type = o.Title, o.Publisher, o.Type
		case k < 11 && len(rows) > 0: // an earlier row's title, later, with other coverage
			o := rows[r.IntN(len(rows))]
			row = o
			row.First, row.Last = fmt.Sprint(year), fmt.Sprint(year+1)
			if r.IntN(3) == 0 {
				row.ID = fmt.Sprintf("id-%d", r.IntN(g.ids)) // another provider title_id for it
			}
			if r.IntN(3) == 0 {
				row.URL = fmt.Sprintf("https://example.org/again/%d", i)
			}
		case k < 12 && len(rows) > 0: // an earlier row again, exactly
			row = rows[r.IntN(len(rows))]
		case k < 13:
			row.Rejected = true
			row.Print = issn()
		case k < 15: // no identifier
		default:
			row.Print = issn()
			if r.IntN(2) == 0 {
				row.Online = issn()
			}
		}
		rows = append(rows, row)
	}
	return rows
}
