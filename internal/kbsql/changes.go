package kbsql

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// stateFunc reads the customer's state of one object as the JSON a change
// records, "" when the customer has none. The JSON is assembled in Go
// (JSONObject): the same bytes on both engines.
type stateFunc func(ctx context.Context, tx Tx) (string, error)

// change records one change of a customer's holdings: the state before and
// after, read the same way, so a change costs two small reads and one
// insert whatever the size of the object changed.
type change struct {
	custID, object, action string
	packageID              int64     // the package it concerns, 0 for none
	state                  stateFunc // nil: the change records no state
	before                 string
}

// beginChange reads the state before the change.
func beginChange(ctx context.Context, tx Tx, custID string, packageID int64, object, action string, state stateFunc) (*change, error) {
	c := &change{custID: custID, packageID: packageID, object: object, action: action, state: state}
	if state != nil {
		var err error
		if c.before, err = state(ctx, tx); err != nil {
			return nil, fmt.Errorf("record change of %s: %w", object, err)
		}
	}
	return c, nil
}

// commit reads the state after the change, records the change and bumps
// the customer's version.
func (c *change) commit(ctx context.Context, tx Tx) error {
	after := ""
	if c.state != nil {
		var err error
		if after, err = c.state(ctx, tx); err != nil {
			return fmt.Errorf("record change of %s: %w", c.object, err)
		}
	}
	var pkg *int64
	if c.packageID != 0 {
		pkg = &c.packageID
	}
	if _, err := tx.Exec(ctx, `INSERT INTO changes(customer_id, at, key_id, object, action, before, after, package_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		c.custID, time.Now().UTC(), kb.ActorFrom(ctx), c.object, c.action, c.before, after, pkg); err != nil {
		return fmt.Errorf("record change of %s: %w", c.object, err)
	}
	return BumpVersion(ctx, tx, CustomerVersion(c.custID))
}

// stateRow scans the one row q selects and returns fields(the scanned
// values) as a JSON object; "" when q selects no row.
func stateRow(ctx context.Context, tx Tx, q string, args []any, dest []any, fields func() []any) (string, error) {
	err := tx.QueryRow(ctx, q, args...).Scan(dest...)
	if NoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return JSONObject(fields()...), nil
}

// vendorState is the customer's state of a vendor.
func vendorState(custID string, vendorID int64) stateFunc {
	return func(ctx context.Context, tx Tx) (string, error) {
		var proxy, token *string
		return stateRow(ctx, tx, `SELECT proxy_id, token_value FROM customer_vendors WHERE customer_id = $1 AND vendor_id = $2`,
			[]any{custID, vendorID}, []any{&proxy, &token},
			func() []any { return []any{"proxy", proxy, "token", token} })
	}
}

// packageState is the customer's state of a package; titleExceptions
// counts its title-level rows (an index range of customer_resources).
func packageState(custID string, packageID int64) stateFunc {
	return func(ctx context.Context, tx Tx) (string, error) {
		var selected, hidden, allowAdd bool
		var covBegin, covEnd string
		var proxy, token *string
		var exceptions int64
		return stateRow(ctx, tx, `SELECT selected, hidden, cov_begin, cov_end, proxy_id, token_value, allow_add,
			(SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = cp.customer_id AND cr.package_id = cp.package_id)
			FROM customer_packages cp WHERE customer_id = $1 AND package_id = $2`,
			[]any{custID, packageID}, []any{&selected, &hidden, &covBegin, &covEnd, &proxy, &token, &allowAdd, &exceptions},
			func() []any {
				return []any{"selected", selected, "hidden", hidden, "coverage", []any{covBegin, covEnd},
					"proxy", proxy, "token", token, "allowOperatorToAddTitles", allowAdd, "titleExceptions", exceptions}
			})
	}
}

// resourceState is the customer's state of a title in a package.
func resourceState(custID string, packageID, titleID int64) stateFunc {
	return func(ctx context.Context, tx Tx) (string, error) {
		var selected *bool
		var hidden bool
		var coverage, statement, udf string
		var eu, ev int
		var proxy *string
		return stateRow(ctx, tx, `SELECT selected, hidden, custom_coverage, coverage_statement, embargo_unit, embargo_value, proxy_id, udf
			FROM customer_resources WHERE customer_id = $1 AND package_id = $2 AND title_id = $3`,
			[]any{custID, packageID, titleID}, []any{&selected, &hidden, &coverage, &statement, &eu, &ev, &proxy, &udf},
			func() []any {
				return []any{"selected", selected, "hidden", hidden, "coverage", jsonOr(coverage, "[]"),
					"coverageStatement", statement, "embargo", []any{eu, ev}, "proxy", proxy,
					"userDefinedFields", jsonOr(udf, "[]")}
			})
	}
}

// rootState is the customer's root proxy and labels.
func rootState(custID string) stateFunc {
	return func(ctx context.Context, tx Tx) (string, error) {
		var proxy, labels string
		return stateRow(ctx, tx, `SELECT root_proxy, labels FROM customers WHERE id = $1`,
			[]any{custID}, []any{&proxy, &labels},
			func() []any { return []any{"proxy", proxy, "labels", jsonOr(labels, "[]")} })
	}
}

// jsonOr returns the stored JSON text s, or none when s is "".
func jsonOr(s, none string) json.RawMessage {
	if s == "" {
		s = none
	}
	return json.RawMessage(s)
}

// Changes lists recorded changes, newest first (kb.ChangeQuery).
func (s *Store) Changes(ctx context.Context, q kb.ChangeQuery) ([]kb.Change, error) {
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	var who []string
	if q.CustomerID != "" {
		who = append(who, `customer_id = `+arg(q.CustomerID))
	}
	if q.KB {
		who = append(who, `customer_id = ''`)
	}
	switch {
	case q.Everyone:
		where = append(where, "TRUE")
	case len(who) == 0:
		return []kb.Change{}, nil
	default:
		where = append(where, "("+strings.Join(who, " OR ")+")")
	}
	if q.PackageID != 0 {
		where = append(where, `package_id = `+arg(q.PackageID))
	}
	if q.ImportID != 0 {
		where = append(where, `import_id = `+arg(q.ImportID))
	}
	if q.FeedID != 0 {
		where = append(where, `feed_id = `+arg(q.FeedID))
	}
	query := `SELECT id, at, customer_id, key_id, COALESCE(import_id, 0), COALESCE(package_id, 0), COALESCE(feed_id, 0), object, action, before, after
		FROM changes WHERE ` + strings.Join(where, " AND ") + ` ORDER BY id DESC`
	if q.Limit >= 0 {
		query += ` LIMIT ` + arg(q.Limit)
	}
	cs, err := QueryAll(ctx, s.e.Read(), query, args, func(r Rows) (kb.Change, error) {
		var c kb.Change
		var at Time
		err := r.Scan(&c.ID, &at, &c.CustomerID, &c.KeyID, &c.ImportID, &c.PackageID, &c.FeedID, &c.Object, &c.Action, &c.Before, &c.After)
		c.At = at.T.UTC().Format(time.RFC3339Nano)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	if cs == nil {
		cs = []kb.Change{}
	}
	return cs, nil
}
