package kbsql

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// A customer's holdings feed (kb.HoldingsStore, issue 37): the rows of
// the institution's file are matched to the package's titles a batch at a
// time, by three indexed look-ups (resources_provider, title_identifiers_norm
// with resources_title, resources_package_sort); the selection is then
// set in one transaction, by statements over lists of title ids.

// holdingsChunk is the most rows one multi-row insert of the holdings
// feed writes, and idChunk the most ids one statement over a list of ids
// names.
const (
	holdingsChunk = 500
	idChunk       = 5000
)

// MatchHoldings implements kb.HoldingsStore: three look-ups of the rows'
// keys, each one statement over the list of keys (Dialect.InTexts), each
// starting from its index: resources_provider (whose condition the query
// repeats, so that the partial index serves it), title_identifiers_norm
// then resources_title (a fixed join order: SQLite, without statistics,
// would start from the package's resources), resources_package_sort.
func (s *Store) MatchHoldings(ctx context.Context, packageID int64, rows []kb.HoldingsRow) ([]int64, error) {
	var providers, norms, names []string
	for _, r := range rows {
		if r.ProviderID != "" {
			providers = append(providers, r.ProviderID)
		}
		norms = append(norms, r.Norms...)
		if r.Name != "" {
			names = append(names, r.Name)
		}
	}
	q := s.e.Read()
	byProvider, err := holdingsLookup(ctx, q, `SELECT provider_id, title_id FROM resources
		WHERE package_id = $1 AND provider_id <> '' AND `+s.d.InTexts("provider_id", "$2"), packageID, providers)
	if err != nil {
		return nil, fmt.Errorf("match holdings to package %d: by title_id: %w", packageID, err)
	}
	byNorm, err := holdingsLookup(ctx, q, `SELECT ti.norm, ti.title_id FROM title_identifiers ti `+s.d.FixedJoin()+` resources r
		ON r.title_id = ti.title_id AND r.package_id = $1 WHERE ti.valid = TRUE AND `+s.d.InTexts("ti.norm", "$2"), packageID, norms)
	if err != nil {
		return nil, fmt.Errorf("match holdings to package %d: by identifier: %w", packageID, err)
	}
	byName, err := holdingsLookup(ctx, q, `SELECT sort_name, title_id FROM resources
		WHERE package_id = $1 AND `+s.d.InTexts("sort_name", "$2"), packageID, names)
	if err != nil {
		return nil, fmt.Errorf("match holdings to package %d: by name: %w", packageID, err)
	}
	out := make([]int64, len(rows))
	for i, r := range rows {
		var c kb.HoldingsCandidates
		if r.ProviderID != "" {
			c.ByProvider = byProvider[r.ProviderID]
		}
		for _, n := range r.Norms {
			c.ByIdentifier = append(c.ByIdentifier, byNorm[n])
		}
		if r.Name != "" {
			c.ByName = byName[r.Name]
		}
		out[i] = kb.PickHoldingsTitle(c)
	}
	return out, nil
}

// holdingsLookup runs query, whose $2 is the list of keys, and returns the
// title ids of each key, ascending and without repeats.
func holdingsLookup(ctx context.Context, q Querier, query string, packageID int64, keys []string) (map[string][]int64, error) {
	out := make(map[string][]int64)
	if len(keys) == 0 {
		return out, nil
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	rows, err := q.Query(ctx, query, packageID, keys)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			return nil, err
		}
		out[k] = append(out[k], id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, ids := range out {
		out[k] = kb.SortedUnique(ids)
	}
	return out, nil
}

// holdingsPackage is what SetHoldings reads of the package and of the
// customer's selection of it.
type holdingsPackage struct {
	typ      kb.PackageType
	selected bool    // selected as a whole (customer_packages.selected)
	titles   []int64 // the package's titles, ascending
	// rows are the customer's title rows of the package's titles: their
	// selected column, TRUE or FALSE, or nil for NULL ("as the package
	// says").
	rows map[int64]*bool
	was  []int64 // the titles the customer selected, ascending
}

// readHoldingsPackage reads the package packageID of vendorID as custID
// sees it, with the titles the customer selected. With lock (in a write
// transaction), on PostgreSQL, the package's row is locked against an
// import (whose transaction updates it) until the transaction ends, so
// that the titles read are those written to.
func readHoldingsPackage(ctx context.Context, q Querier, d Dialect, lock bool, custID string, vendorID, packageID int64) (holdingsPackage, error) {
	var hp holdingsPackage
	var custom bool
	var typ int
	forShare := ""
	if lock {
		forShare = d.ForShare()
	}
	err := q.QueryRow(ctx, `SELECT p.customer_id IS NOT NULL, p.package_type FROM packages p
		WHERE p.id = $2 AND p.vendor_id = $3 AND `+sqlPackageVisible+forShare, custID, packageID, vendorID).Scan(&custom, &typ)
	if NoRows(err) {
		return hp, kb.NotFound("Package")
	}
	if err != nil {
		return hp, fmt.Errorf("package %d: %w", packageID, err)
	}
	if custom {
		return hp, kb.Errorf(kb.CodeNotAllowed, "package %d is a custom package: a holdings feed selects the titles of a package of the knowledge base", packageID)
	}
	hp.typ = kb.PackageType(typ)
	if err := q.QueryRow(ctx, `SELECT COALESCE((SELECT selected FROM customer_packages WHERE customer_id = $1 AND package_id = $2), FALSE)`,
		custID, packageID).Scan(&hp.selected); err != nil {
		return hp, fmt.Errorf("package %d: the customer's selection: %w", packageID, err)
	}
	if hp.titles, err = QueryAll(ctx, q, `SELECT title_id FROM resources WHERE package_id = $1 ORDER BY title_id`, []any{packageID}, ScanInt64); err != nil {
		return hp, fmt.Errorf("package %d: its titles: %w", packageID, err)
	}
	hp.rows = map[int64]*bool{}
	rows, err := q.Query(ctx, `SELECT title_id, selected FROM customer_resources WHERE customer_id = $1 AND package_id = $2`, custID, packageID)
	if err != nil {
		return hp, fmt.Errorf("package %d: the customer's titles: %w", packageID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var sel *bool
		if err := rows.Scan(&id, &sel); err != nil {
			return hp, fmt.Errorf("package %d: the customer's titles: %w", packageID, err)
		}
		if _, ok := slices.BinarySearch(hp.titles, id); ok {
			hp.rows[id] = sel
		}
	}
	if err := rows.Err(); err != nil {
		return hp, fmt.Errorf("package %d: the customer's titles: %w", packageID, err)
	}
	hp.was = []int64{}
	for _, id := range hp.titles {
		if hp.isSelected(id) {
			hp.was = append(hp.was, id)
		}
	}
	return hp, nil
}

// isSelected reports whether the customer selects title id, in the
// package as it was read.
func (hp *holdingsPackage) isSelected(id int64) bool {
	sel, ok := hp.rows[id]
	switch {
	case ok && sel != nil:
		return *sel
	default:
		return hp.selected
	}
}

// SetHoldings implements kb.HoldingsStore. A dry run reads in a read
// transaction and writes nothing.
func (s *Store) SetHoldings(ctx context.Context, custID string, vendorID, packageID int64, titles []int64, w kb.HoldingsWrite) (kb.HoldingsResult, error) {
	given := kb.SortedUnique(slices.Clone(titles))
	keep := kb.SortedUnique(slices.Clone(w.Keep))
	var res kb.HoldingsResult
	var want []int64
	plan := func(q Querier) (holdingsPackage, error) {
		hp, err := readHoldingsPackage(ctx, q, s.d, !w.DryRun, custID, vendorID, packageID)
		if err != nil {
			return hp, err
		}
		want = []int64{}
		outside := 0
		for _, id := range given {
			if _, ok := slices.BinarySearch(hp.titles, id); ok {
				want = append(want, id)
			} else {
				outside++
			}
		}
		for _, id := range keep { // left as they are: kept when selected
			if _, ok := slices.BinarySearch(hp.titles, id); ok && hp.isSelected(id) {
				want = append(want, id)
			}
		}
		want = kb.SortedUnique(want)
		res = kb.HoldingsResult{WasSelected: len(hp.was), NowSelected: len(want), Outside: outside}
		res.Selected, res.Deselected, res.Kept = kb.PlanHoldings(hp.was, want)
		if hp.typ == kb.PackageComplete && len(want) != 0 && len(want) != len(hp.titles) {
			return hp, kb.Errorf(kb.CodeNotAllowed, "package %d is a Complete package: its titles are selected with the package, "+
				"and the file names %d of its %d titles, not all or none", packageID, len(want), len(hp.titles))
		}
		return hp, nil
	}
	if w.DryRun {
		err := s.e.ReadTx(ctx, func(q Querier) error {
			_, err := plan(q)
			return err
		})
		if err != nil {
			return kb.HoldingsResult{}, holdingsError(custID, packageID, err)
		}
		return res, nil
	}
	err := s.e.Write(ctx, custID, func(tx Tx) error {
		hp, err := plan(tx)
		if err != nil {
			return err
		}
		if len(res.Selected) == 0 && len(res.Deselected) == 0 {
			return nil // nothing changes: no change is recorded
		}
		if err := writeHoldings(ctx, tx, s.d, custID, packageID, hp, want); err != nil {
			return err
		}
		return recordHoldingsChange(ctx, tx, custID, packageID, w.FeedID, res)
	})
	if err != nil {
		return kb.HoldingsResult{}, holdingsError(custID, packageID, err)
	}
	return res, nil
}

// holdingsError words a SetHoldings failure, leaving the codes of the
// rules as they are.
func holdingsError(custID string, packageID int64, err error) error {
	if kb.ErrorCode(err) != kb.CodeInternal {
		return err
	}
	return fmt.Errorf("set the holdings of %s in package %d: %w", custID, packageID, err)
}

// writeHoldings makes the customer's selected titles of the package
// exactly want, as the API's writes keep a selection: when more than half
// the titles are selected (all, for a Complete package), the package is
// selected as a whole and each title not selected is an exception
// (selected FALSE, its customisation cleared, as a deselection clears
// it); else the package is not selected as a whole and each selected title
// has a row of its own (selected TRUE), the others none. A title that
// stays selected keeps its row's customisation in either form. A Complete
// package with no title selected is deselected.
func writeHoldings(ctx context.Context, tx Tx, d Dialect, custID string, packageID int64, hp holdingsPackage, want []int64) error {
	wanted := func(id int64) bool { _, ok := slices.BinarySearch(want, id); return ok }
	if hp.typ == kb.PackageComplete && len(want) == 0 {
		for _, q := range []string{`DELETE FROM customer_packages WHERE customer_id = $1 AND package_id = $2`,
			`DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2`} {
			if _, err := tx.Exec(ctx, q, custID, packageID); err != nil {
				return fmt.Errorf("deselect package %d: %w", packageID, err)
			}
		}
		return nil
	}
	whole := len(want)*2 > len(hp.titles) || hp.typ == kb.PackageComplete
	// What each title's row becomes: NULL, FALSE or TRUE, or no row.
	var toNull, toFalse, toTrue, toNone []int64
	for _, id := range hp.titles {
		sel, has := hp.rows[id]
		in := wanted(id)
		switch {
		case whole && in:
			if has && sel != nil {
				toNull = append(toNull, id)
			}
		case whole:
			if !has || sel == nil || *sel {
				toFalse = append(toFalse, id)
			}
		case in:
			if !has || sel == nil || !*sel {
				toTrue = append(toTrue, id)
			}
		case has:
			toNone = append(toNone, id)
		}
	}
	for chunk := range slices.Chunk(toNull, idChunk) {
		if _, err := tx.Exec(ctx, `UPDATE customer_resources SET selected = NULL WHERE customer_id = $1 AND package_id = $2 AND `+
			d.InIDs("title_id", "$3"), custID, packageID, chunk); err != nil {
			return fmt.Errorf("select titles of package %d: %w", packageID, err)
		}
	}
	for chunk := range slices.Chunk(toNone, idChunk) {
		if _, err := tx.Exec(ctx, `DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2 AND `+
			d.InIDs("title_id", "$3"), custID, packageID, chunk); err != nil {
			return fmt.Errorf("deselect titles of package %d: %w", packageID, err)
		}
	}
	for chunk := range slices.Chunk(toFalse, holdingsChunk) {
		if _, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES `+
			holdingsValues(len(chunk), "FALSE")+`
			ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = FALSE, hidden = FALSE, custom_coverage = '',
			coverage_statement = '', embargo_unit = 0, embargo_value = 0, proxy_id = NULL, udf = ''`, holdingsArgs(custID, packageID, chunk)...); err != nil {
			return fmt.Errorf("deselect titles of package %d: %w", packageID, err)
		}
	}
	for chunk := range slices.Chunk(toTrue, holdingsChunk) {
		if _, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES `+
			holdingsValues(len(chunk), "TRUE")+`
			ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = TRUE`, holdingsArgs(custID, packageID, chunk)...); err != nil {
			return fmt.Errorf("select titles of package %d: %w", packageID, err)
		}
	}
	switch {
	case whole && !hp.selected:
		// The package's own settings (visibility, coverage, proxy) stay.
		if _, err := tx.Exec(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected) VALUES ($1, $2, TRUE)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = TRUE`, custID, packageID); err != nil {
			return fmt.Errorf("select package %d: %w", packageID, err)
		}
	case !whole && hp.selected:
		if _, err := tx.Exec(ctx, `UPDATE customer_packages SET selected = FALSE WHERE customer_id = $1 AND package_id = $2`, custID, packageID); err != nil {
			return fmt.Errorf("select package %d title by title: %w", packageID, err)
		}
	}
	return nil
}

// holdingsArgs are $1 the customer, $2 the package and $3… the ids.
func holdingsArgs(custID string, packageID int64, ids []int64) []any {
	args := make([]any, 0, 2+len(ids))
	args = append(args, custID, packageID)
	for _, id := range ids {
		args = append(args, id)
	}
	return args
}

// holdingsValues is the VALUES list of n rows ($1, $2, $k, selected).
func holdingsValues(n int, selected string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "($1, $2, $%d, %s)", 3+i, selected)
	}
	return b.String()
}

// recordHoldingsChange records a holdings file's change of the customer's
// selection as one change of the package, the feed's, and moves the
// customer's version on, as a customer's write does.
func recordHoldingsChange(ctx context.Context, tx Tx, custID string, packageID, feedID int64, res kb.HoldingsResult) error {
	var feed *int64
	if feedID != 0 {
		feed = &feedID
	}
	if _, err := tx.Exec(ctx, `INSERT INTO changes(customer_id, at, key_id, object, action, before, after, package_id, feed_id)
		VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8)`, custID, time.Now().UTC(), fmt.Sprintf("package %d", packageID), kb.HoldingsFileAction,
		JSONObject("selectedTitles", res.WasSelected), JSONObject("selectedTitles", res.NowSelected, "selected", len(res.Selected),
			"deselected", len(res.Deselected)), packageID, feed); err != nil {
		return fmt.Errorf("record the change of package %d: %w", packageID, err)
	}
	return BumpVersion(ctx, tx, CustomerVersion(custID))
}
