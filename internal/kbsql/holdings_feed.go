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

// holdingsChunk is the most values one IN list or one multi-row insert
// of the holdings feed carries.
const holdingsChunk = 500

// MatchHoldings implements kb.HoldingsStore.
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
	byProvider, err := holdingsLookup(ctx, q, `SELECT provider_id, title_id FROM resources WHERE package_id = $1 AND provider_id IN `, packageID, providers)
	if err != nil {
		return nil, fmt.Errorf("match holdings to package %d: by title_id: %w", packageID, err)
	}
	byNorm, err := holdingsLookup(ctx, q, `SELECT ti.norm, ti.title_id FROM title_identifiers ti
		JOIN resources r ON r.title_id = ti.title_id AND r.package_id = $1 WHERE ti.valid = TRUE AND ti.norm IN `, packageID, norms)
	if err != nil {
		return nil, fmt.Errorf("match holdings to package %d: by identifier: %w", packageID, err)
	}
	byName, err := holdingsLookup(ctx, q, `SELECT sort_name, title_id FROM resources WHERE package_id = $1 AND sort_name IN `, packageID, names)
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
			c.ByIdentifier = append(c.ByIdentifier, byNorm[n]...)
		}
		c.ByIdentifier = kb.SortedUnique(c.ByIdentifier)
		if r.Name != "" {
			c.ByName = byName[r.Name]
		}
		out[i] = kb.PickHoldingsTitle(c)
	}
	return out, nil
}

// holdingsLookup runs query (which ends in "IN ") over keys, a chunk at a
// time, and returns the title ids of each key, ascending and without
// repeats.
func holdingsLookup(ctx context.Context, q Querier, query string, packageID int64, keys []string) (map[string][]int64, error) {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	out := make(map[string][]int64)
	for chunk := range slices.Chunk(keys, holdingsChunk) {
		args := []any{packageID}
		var in strings.Builder
		in.WriteString("(")
		for i, k := range chunk {
			if i > 0 {
				in.WriteString(", ")
			}
			args = append(args, k)
			fmt.Fprintf(&in, "$%d", len(args))
		}
		in.WriteString(")")
		rows, err := q.Query(ctx, query+in.String(), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k string
			var id int64
			if err := rows.Scan(&k, &id); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = append(out[k], id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
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
	selected bool    // selected through the package (customer_packages.selected)
	titles   []int64 // the package's titles, ascending
	was      []int64 // those the customer selected, ascending
}

// readHoldingsPackage reads the package packageID of vendorID as custID
// sees it, with the titles the customer selected.
func readHoldingsPackage(ctx context.Context, q Querier, custID string, vendorID, packageID int64) (holdingsPackage, error) {
	var hp holdingsPackage
	var custom bool
	var typ int
	err := q.QueryRow(ctx, `SELECT p.customer_id IS NOT NULL, p.package_type, COALESCE(cp.selected, FALSE)
		FROM packages p LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id
		WHERE p.id = $2 AND p.vendor_id = $3 AND `+sqlPackageVisible, custID, packageID, vendorID).Scan(&custom, &typ, &hp.selected)
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
	if hp.titles, err = QueryAll(ctx, q, `SELECT title_id FROM resources WHERE package_id = $1 ORDER BY title_id`, []any{packageID}, ScanInt64); err != nil {
		return hp, fmt.Errorf("package %d: its titles: %w", packageID, err)
	}
	type exception struct {
		id       int64
		selected *bool
	}
	exs, err := QueryAll(ctx, q, `SELECT title_id, selected FROM customer_resources WHERE customer_id = $1 AND package_id = $2 ORDER BY title_id`,
		[]any{custID, packageID}, func(r Rows) (exception, error) {
			var e exception
			err := r.Scan(&e.id, &e.selected)
			return e, err
		})
	if err != nil {
		return hp, fmt.Errorf("package %d: the customer's titles: %w", packageID, err)
	}
	in := func(id int64) bool { _, ok := slices.BinarySearch(hp.titles, id); return ok }
	hp.was = []int64{}
	if hp.selected {
		out := map[int64]bool{}
		for _, e := range exs {
			if e.selected != nil && !*e.selected {
				out[e.id] = true
			}
		}
		for _, id := range hp.titles {
			if !out[id] {
				hp.was = append(hp.was, id)
			}
		}
		return hp, nil
	}
	for _, e := range exs {
		if e.selected != nil && *e.selected && in(e.id) {
			hp.was = append(hp.was, e.id)
		}
	}
	return hp, nil
}

// SetHoldings implements kb.HoldingsStore. A dry run reads in a read
// transaction and writes nothing.
func (s *Store) SetHoldings(ctx context.Context, custID string, vendorID, packageID int64, titles []int64, w kb.HoldingsWrite) (kb.HoldingsResult, error) {
	want := kb.SortedUnique(slices.Clone(titles))
	var res kb.HoldingsResult
	plan := func(q Querier) (holdingsPackage, error) {
		hp, err := readHoldingsPackage(ctx, q, custID, vendorID, packageID)
		if err != nil {
			return hp, err
		}
		inPackage := want[:0:0]
		for _, id := range want {
			if _, ok := slices.BinarySearch(hp.titles, id); ok {
				inPackage = append(inPackage, id)
			}
		}
		res = kb.HoldingsResult{WasSelected: len(hp.was), NowSelected: len(inPackage), Outside: len(want) - len(inPackage)}
		res.Selected, res.Deselected, res.Kept = kb.PlanHoldings(hp.was, inPackage)
		if hp.typ == kb.PackageComplete && len(inPackage) != 0 && len(inPackage) != len(hp.titles) {
			return hp, kb.Errorf(kb.CodeNotAllowed, "package %d is a Complete package: its titles are selected with the package, "+
				"and the file names %d of its %d titles, not all or none", packageID, len(inPackage), len(hp.titles))
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
		if err := writeHoldings(ctx, tx, custID, packageID, hp, res); err != nil {
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

// writeHoldings selects res.Selected and deselects res.Deselected, as the
// title-level writes of the API do: in a package selected as a whole, a
// deselection is an exception (selected FALSE, customisation cleared) and
// a selection removes it; otherwise a title is selected by a row of its
// own and deselected by deleting it. A file that names every title of a
// package not selected selects the package; one that names none of a
// Complete package deselects it.
func writeHoldings(ctx context.Context, tx Tx, custID string, packageID int64, hp holdingsPackage, res kb.HoldingsResult) error {
	switch {
	case res.NowSelected == 0 && hp.selected && hp.typ == kb.PackageComplete:
		for _, q := range []string{`DELETE FROM customer_packages WHERE customer_id = $1 AND package_id = $2`,
			`DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2`} {
			if _, err := tx.Exec(ctx, q, custID, packageID); err != nil {
				return fmt.Errorf("deselect package %d: %w", packageID, err)
			}
		}
		return nil
	case res.NowSelected == len(hp.titles) && !hp.selected && len(hp.titles) > 0:
		// The whole package: selected as a whole, its title-level
		// selections redundant (their customisation stays).
		if _, err := tx.Exec(ctx, `UPDATE customer_resources SET selected = NULL
			WHERE customer_id = $1 AND package_id = $2 AND selected IS NOT NULL`, custID, packageID); err != nil {
			return fmt.Errorf("select package %d: %w", packageID, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected) VALUES ($1, $2, TRUE)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = TRUE`, custID, packageID)
		if err != nil {
			return fmt.Errorf("select package %d: %w", packageID, err)
		}
		return nil
	}
	var sel, desel func([]int64) error
	if hp.selected {
		sel = func(ids []int64) error {
			_, err := tx.Exec(ctx, `UPDATE customer_resources SET selected = NULL WHERE customer_id = $1 AND package_id = $2
				AND title_id IN `+idList(3, len(ids)), holdingsArgs(custID, packageID, ids)...)
			return err
		}
		desel = func(ids []int64) error {
			_, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES `+
				holdingsValues(len(ids), "FALSE")+`
				ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = FALSE, hidden = FALSE, custom_coverage = '',
				coverage_statement = '', embargo_unit = 0, embargo_value = 0, proxy_id = NULL, udf = ''`, holdingsArgs(custID, packageID, ids)...)
			return err
		}
	} else {
		sel = func(ids []int64) error {
			_, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES `+
				holdingsValues(len(ids), "TRUE")+`
				ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = TRUE`, holdingsArgs(custID, packageID, ids)...)
			return err
		}
		desel = func(ids []int64) error {
			_, err := tx.Exec(ctx, `DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2
				AND title_id IN `+idList(3, len(ids)), holdingsArgs(custID, packageID, ids)...)
			return err
		}
	}
	for chunk := range slices.Chunk(res.Deselected, holdingsChunk) {
		if err := desel(chunk); err != nil {
			return fmt.Errorf("deselect titles of package %d: %w", packageID, err)
		}
	}
	for chunk := range slices.Chunk(res.Selected, holdingsChunk) {
		if err := sel(chunk); err != nil {
			return fmt.Errorf("select titles of package %d: %w", packageID, err)
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

// idList is "($from, …)" of n parameters.
func idList(from, n int) string {
	var b strings.Builder
	b.WriteString("(")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", from+i)
	}
	b.WriteString(")")
	return b.String()
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
