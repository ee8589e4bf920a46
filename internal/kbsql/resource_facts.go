package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
)

// A page of titles shows each title's resources with their packages,
// vendors and the customer's state on them. Joining those tables for every
// resource row cost five B-tree look-ups a row, the most of a title
// search's time on a large knowledge base; they are small and change only with an
// import or a write of the customer, so completeTitles reads them once a
// version into memory (packageFacts) and reads per row only the resource
// and the customer's state on it.

// packageFact is what a resource row shows of its package and vendor.
type packageFact struct {
	name, sortName string
	ptype          kb.PackageType
	custom         bool
	vendorID       int64
	vendorName     string
	token          bool
}

// customerFacts are a customer's packages beside the managed ones (its
// custom packages), its package-level state and its vendors' proxies.
type customerFacts struct {
	custom  map[int64]*packageFact
	state   map[int64]pkgState
	vendors map[int64]string // vendor id → proxy id
}

// pkgState is a customer's state on a package.
type pkgState struct {
	selected, hidden bool
	proxy            string
}

// factCache keeps the managed packages' facts of the knowledge base's
// current version and the facts of the customers that read them lately.
type factCache struct {
	mu        sync.Mutex
	kbVersion int64
	managed   map[int64]*packageFact
	customers map[string]*customerFactsAt
}

// customerFactsAt is a customer's facts read at its version.
type customerFactsAt struct {
	version int64
	facts   *customerFacts
}

// maxFactCustomers bounds the customers whose facts are kept; past it the
// cache starts again.
const maxFactCustomers = 256

// facts returns the managed packages' facts and the customer's, read at
// the versions of the knowledge base and of the customer or again.
func (s *Store) facts(ctx context.Context, custID string) (map[int64]*packageFact, *customerFacts, error) {
	kbv, cv, err := s.versionsOf(ctx, custID)
	if err != nil {
		return nil, nil, err
	}
	return s.factsAt(ctx, custID, kbv, cv)
}

// factsAt returns the managed packages' facts and the customer's, read at
// the versions kbv and cv (read before) or again.
func (s *Store) factsAt(ctx context.Context, custID string, kbv, cv int64) (map[int64]*packageFact, *customerFacts, error) {
	var err error
	c := &s.factCache
	c.mu.Lock()
	managed := c.managed
	if c.kbVersion != kbv {
		managed = nil
	}
	cf := c.customers[custID]
	c.mu.Unlock()
	if managed == nil {
		if managed, err = s.readManagedFacts(ctx); err != nil {
			return nil, nil, err
		}
		c.mu.Lock()
		if kbv >= c.kbVersion {
			c.kbVersion, c.managed = kbv, managed
			clear(c.customers)
		}
		c.mu.Unlock()
	}
	if cf == nil || cf.version != cv {
		f, err := s.readCustomerFacts(ctx, custID)
		if err != nil {
			return nil, nil, err
		}
		cf = &customerFactsAt{cv, f}
		c.mu.Lock()
		if c.customers == nil || len(c.customers) >= maxFactCustomers {
			c.customers = map[string]*customerFactsAt{}
		}
		c.customers[custID] = cf
		c.mu.Unlock()
	}
	return managed, cf.facts, nil
}

// sqlPackageFacts reads packages with their vendors.
const sqlPackageFacts = `SELECT p.id, p.name, p.sort_name, p.package_type, p.customer_id IS NOT NULL, p.vendor_id, v.name, p.token_fact IS NOT NULL
	FROM packages p JOIN vendors v ON v.id = p.vendor_id`

// readPackageFacts reads the packages of query (sqlPackageFacts and a
// condition) by id.
func (s *Store) readPackageFacts(ctx context.Context, query string, args ...any) (map[int64]*packageFact, error) {
	m := map[int64]*packageFact{}
	err := EachRow(ctx, s.e.Read(), query, args, func(r Rows) error {
		var id int64
		var pt int
		f := &packageFact{}
		if err := r.Scan(&id, &f.name, &f.sortName, &pt, &f.custom, &f.vendorID, &f.vendorName, &f.token); err != nil {
			return err
		}
		f.ptype = kb.PackageType(pt)
		m[id] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("package facts: %w", err)
	}
	return m, nil
}

// readManagedFacts reads the managed packages' facts.
func (s *Store) readManagedFacts(ctx context.Context) (map[int64]*packageFact, error) {
	return s.readPackageFacts(ctx, sqlPackageFacts+` WHERE p.customer_id IS NULL`)
}

// readCustomerFacts reads the customer's custom packages, its state on
// packages and its vendors' proxies.
func (s *Store) readCustomerFacts(ctx context.Context, custID string) (*customerFacts, error) {
	custom, err := s.readPackageFacts(ctx, sqlPackageFacts+` WHERE p.customer_id = $1`, custID)
	if err != nil {
		return nil, err
	}
	f := &customerFacts{custom: custom, state: map[int64]pkgState{}, vendors: map[int64]string{}}
	read := s.e.Read()
	err = EachRow(ctx, read, `SELECT package_id, selected, hidden, COALESCE(proxy_id, '') FROM customer_packages WHERE customer_id = $1`,
		[]any{custID}, func(r Rows) error {
			var id int64
			var st pkgState
			if err := r.Scan(&id, &st.selected, &st.hidden, &st.proxy); err != nil {
				return err
			}
			f.state[id] = st
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("package states of %s: %w", custID, err)
	}
	err = EachRow(ctx, read, `SELECT vendor_id, COALESCE(proxy_id, '') FROM customer_vendors WHERE customer_id = $1`,
		[]any{custID}, func(r Rows) error {
			var id int64
			var proxy string
			if err := r.Scan(&id, &proxy); err != nil {
				return err
			}
			f.vendors[id] = proxy
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("vendor proxies of %s: %w", custID, err)
	}
	return f, nil
}

// sqlResourceRows reads the resources of the titles in the array $2 (only
// those in package $3 when it is not 0) with the customer's ($1) state on
// each, without their packages.
func (s *Store) sqlResourceRows(inPackage bool) string {
	q := `SELECT r.title_id, r.package_id, r.coverage, r.embargo_unit, r.embargo_value, r.url,
		cr.selected, COALESCE(cr.hidden, FALSE), COALESCE(cr.custom_coverage, ''), COALESCE(cr.coverage_statement, ''),
		COALESCE(cr.embargo_unit, 0), COALESCE(cr.embargo_value, 0), COALESCE(cr.udf, ''), cr.proxy_id
		FROM resources r LEFT JOIN customer_resources cr ON cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id
		WHERE ` + s.d.InIDs("r.title_id", "$2")
	if inPackage {
		q += ` AND r.package_id = $3`
	}
	return q
}

// resourceScan holds the columns of sqlResourceRows as scanned.
type resourceScan struct {
	r                     kb.Resource
	eu, ceu               int
	selected              *bool
	proxy                 *string
	hidden                bool
	coverage, custom, udf string
}

// dest returns the scan destinations of sqlResourceRows' columns.
func (x *resourceScan) dest() []any {
	r := &x.r
	return []any{&r.TitleID, &r.PackageID, &x.coverage, &x.eu, &r.ManagedEmbargo.Value, &r.URL,
		&x.selected, &x.hidden, &x.custom, &r.CoverageStatement, &x.ceu, &r.CustomEmbargo.Value, &x.udf, &x.proxy}
}

// resource decodes the scanned columns with the facts of the resource's
// package p, the customer's state on it, its vendor's proxy for the
// customer and the customer's root proxy.
func (x *resourceScan) resource(p *packageFact, st pkgState, vendorProxy, root string) (kb.Resource, error) {
	r := x.r
	r.PackageName, r.PackageType, r.IsPackageCustom, r.VendorID, r.VendorName, r.IsTokenNeeded =
		p.name, p.ptype, p.custom, p.vendorID, p.vendorName, p.token
	r.IsSelected = st.selected
	if x.selected != nil {
		r.IsSelected = *x.selected
	}
	r.Visibility = kb.HiddenBy(st.hidden || x.hidden)
	r.ManagedEmbargo.Unit, r.CustomEmbargo.Unit = kb.EmbargoUnit(x.eu), kb.EmbargoUnit(x.ceu)
	r.Proxy = effectiveProxy(x.proxy, st.proxy, vendorProxy, root)
	var err error
	if r.ManagedCoverage, err = DecodeCoverage(x.coverage); err != nil {
		return r, fmt.Errorf("title %d coverage: %w", r.TitleID, err)
	}
	kb.SortCoverage(r.ManagedCoverage)
	if r.CustomCoverage, err = DecodeCoverage(x.custom); err != nil {
		return r, fmt.Errorf("title %d custom coverage: %w", r.TitleID, err)
	}
	if err := DecodeUserDefined(x.udf, &r.UserDefined); err != nil {
		return r, fmt.Errorf("title %d user-defined fields: %w", r.TitleID, err)
	}
	return r, nil
}

// readResourceRows reads the batch's next result, sqlResourceRows of the
// titles, into them with their packages' facts (resources in packages the
// customer may not see are left out), each title's in package name order;
// root is the customer's root proxy.
func readResourceRows(res Results, ts []kb.Title, root string, managed map[int64]*packageFact, cf *customerFacts) error {
	rows, err := res.Query()
	if err != nil {
		return fmt.Errorf("title resources: %w", err)
	}
	defer rows.Close()
	titles := byID(ts)
	fact := func(id int64) *packageFact {
		if p := managed[id]; p != nil {
			return p
		}
		return cf.custom[id] // nil: another customer's custom package
	}
	var x resourceScan
	dest := x.dest()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("title resources: %w", err)
		}
		p := fact(x.r.PackageID)
		if p == nil {
			continue
		}
		r, err := x.resource(p, cf.state[x.r.PackageID], cf.vendors[p.vendorID], root)
		if err != nil {
			return err
		}
		if t := titles[r.TitleID]; t != nil {
			t.Resources = append(t.Resources, r)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title resources: %w", err)
	}
	for _, t := range titles {
		slices.SortFunc(t.Resources, func(a, b kb.Resource) int {
			return cmp.Or(strings.Compare(fact(a.PackageID).sortName, fact(b.PackageID).sortName), cmp.Compare(a.PackageID, b.PackageID))
		})
	}
	return nil
}
