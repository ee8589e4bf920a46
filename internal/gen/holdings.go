package gen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// CustomerSpec asks for a customer whose selected packages hold about
// Holdings resources.
type CustomerSpec struct {
	ID       string
	Holdings int
}

// ParseCustomerSpec reads "ID=HOLDINGS", e.g. "big=1500000".
func ParseCustomerSpec(s string) (CustomerSpec, error) {
	id, n, ok := strings.Cut(s, "=")
	id = strings.TrimSpace(id)
	h, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(n), "_", ""))
	if !ok || id == "" || err != nil || h < 1 {
		return CustomerSpec{}, fmt.Errorf("customer %q: want ID=HOLDINGS with a positive number of holdings, e.g. big=1500000", s)
	}
	return CustomerSpec{ID: id, Holdings: h}, nil
}

// HoldingsStore is what Customers needs of a store.
type HoldingsStore interface {
	AddCustomer(ctx context.Context, id, name string) (kb.Customer, error)
	Customer(ctx context.Context, id string) (kb.Customer, error)
	AddProxy(ctx context.Context, custID string, p kb.Proxy) error
	UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u kb.PackageUpdate) error
	UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u kb.ResourceUpdate) error
	Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error)
	Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error)
}

// PackageRef is a managed package of the store, as Customers selects it.
type PackageRef struct {
	VendorID  int64
	PackageID int64
	Size      int // its resources
	Type      kb.PackageType
}

// CustomerSummary reports what Customers did for one customer.
type CustomerSummary struct {
	ID              string
	Packages        int // packages selected
	Holdings        int // resources in them, as generated (before title-level exceptions)
	PackageChanges  int // packages with a customisation (hidden, coverage, proxy, titles one by one)
	ResourceChanges int // titles customised (deselected, hidden, coverage, embargo, statement, proxy, fields)
}

// Customer proxies every generated customer gets.
var genProxies = [...]kb.Proxy{
	{ID: "EZProxy", Name: "EZproxy", URLMask: "https://ezproxy.library.example/login?url={targetURL}"},
	{ID: "OpenAthens", Name: "OpenAthens", URLMask: "https://go.openathens.example/redirector/library.example?url={targetURL}"},
}

// Customers creates each customer (or reuses one of that id) and selects
// managed packages of the store, in an order drawn from the seed and the
// customer id, until they hold about spec.Holdings resources; a package
// that would overshoot by more than 2% is skipped. It then customises some
// of them as libraries do: about 3% of the packages hidden, 5% with a
// custom coverage, 5% behind a proxy and 1% selected title by title (20
// titles each), and in one selected package of ten, 10 titles each
// deselected, hidden, given a custom coverage, an embargo, a coverage
// statement, a proxy or user-defined fields. The same store, seed and
// specs give the same holdings.
func Customers(ctx context.Context, st HoldingsStore, seed int64, specs []CustomerSpec, progress func(done, total int)) ([]CustomerSummary, error) {
	if progress == nil {
		progress = func(int, int) {}
	}
	if seed == 0 {
		seed = 1 // as Generate's default
	}
	total := 0
	for _, s := range specs {
		total += s.Holdings
	}
	var out []CustomerSummary
	var refs []PackageRef
	done := 0
	for _, spec := range specs {
		if err := ensureCustomer(ctx, st, spec.ID); err != nil {
			return out, fmt.Errorf("gen: customer %s: %w", spec.ID, err)
		}
		if refs == nil {
			var err error
			if refs, err = packageRefs(ctx, st, spec.ID); err != nil {
				return out, fmt.Errorf("gen: %w", err)
			}
			if len(refs) == 0 {
				return out, errors.New("gen: the knowledge base has no packages to select")
			}
		}
		cs, err := customer(ctx, st, mix(uint64(seed)), refs, spec, func(n int) { progress(done+n, total) })
		out = append(out, cs)
		if err != nil {
			return out, fmt.Errorf("gen: customer %s: %w", spec.ID, err)
		}
		done += spec.Holdings
		progress(done, total)
	}
	return out, nil
}

// packageRefs lists the store's managed packages in id order.
func packageRefs(ctx context.Context, st HoldingsStore, custID string) ([]PackageRef, error) {
	var refs []PackageRef
	for page := 1; ; page++ {
		pl, err := st.Packages(ctx, custID, kb.PackageQuery{Page: kb.Page{Count: 100, Number: page}})
		if err != nil {
			return nil, fmt.Errorf("list packages: %w", err)
		}
		for _, p := range pl.Packages {
			if !p.IsCustom {
				refs = append(refs, PackageRef{VendorID: p.VendorID, PackageID: p.ID, Size: p.TitleCount, Type: p.PackageType})
			}
		}
		if len(pl.Packages) == 0 || page*100 >= pl.Total {
			break
		}
	}
	slices.SortFunc(refs, func(a, b PackageRef) int { return cmp.Compare(a.PackageID, b.PackageID) })
	return refs, nil
}

func ensureCustomer(ctx context.Context, st HoldingsStore, id string) error {
	_, err := st.Customer(ctx, id)
	if kb.ErrorCode(err) == kb.CodeNotFound {
		_, err = st.AddCustomer(ctx, id, "Generated library "+id)
	}
	return err
}

func customer(ctx context.Context, st HoldingsStore, seed uint64, refs []PackageRef, spec CustomerSpec, progress func(int)) (CustomerSummary, error) {
	cs := CustomerSummary{ID: spec.ID}
	for _, p := range genProxies {
		if err := st.AddProxy(ctx, spec.ID, p); err != nil {
			return cs, err
		}
	}
	cseed := fnvString(seed, spec.ID)
	order := newPerm(len(refs), mix(cseed))
	limit := spec.Holdings + spec.Holdings/50
	for i := 0; i < len(refs) && cs.Holdings < spec.Holdings-spec.Holdings/50; i++ {
		if err := ctx.Err(); err != nil {
			return cs, err
		}
		ref := refs[order.at(i)]
		if cs.Holdings+ref.Size > limit {
			continue
		}
		r := newRNG(cseed, uint64(ref.PackageID))
		u, byTitle := packageUpdate(&r, ref.Type)
		if err := st.UpdatePackage(ctx, spec.ID, ref.VendorID, ref.PackageID, u); err != nil {
			return cs, fmt.Errorf("select package %d: %w", ref.PackageID, err)
		}
		cs.Packages++
		if byTitle || u.Hidden || u.CustomCoverage.Begin != "" || u.Proxy != nil {
			cs.PackageChanges++
		}
		switch {
		case byTitle:
			n, err := customiseTitles(ctx, st, spec.ID, ref, &r, true)
			cs.Holdings += n
			cs.ResourceChanges += n
			if err != nil {
				return cs, err
			}
		case r.permille(100):
			n, err := customiseTitles(ctx, st, spec.ID, ref, &r, false)
			cs.ResourceChanges += n
			if err != nil {
				return cs, err
			}
			fallthrough
		default:
			cs.Holdings += ref.Size
		}
		progress(cs.Holdings)
	}
	return cs, nil
}

// packageUpdate draws a selected package's customisation; byTitle means
// the package is selected without its titles, which are selected one by
// one (never in a Complete package, whose titles go with it).
func packageUpdate(r *rng, t kb.PackageType) (kb.PackageUpdate, bool) {
	u := kb.PackageUpdate{Selected: true}
	if r.permille(10) && t != kb.PackageComplete {
		f := false
		u.FullPackage = &f
		return u, true
	}
	u.Hidden = r.permille(30)
	if r.permille(50) {
		u.CustomCoverage = kb.Coverage{Begin: strconv.Itoa(1990+r.intn(30)) + "-01-01"}
	}
	if r.permille(50) {
		u.Proxy = &kb.ProxyRef{ID: genProxies[r.intn(len(genProxies))].ID}
	}
	return u, false
}

// customiseTitles customises the first titles of a package (by name): 20
// selected one by one when selectEach, else 10 with a drawn change each.
// It returns how many it changed.
func customiseTitles(ctx context.Context, st HoldingsStore, custID string, ref PackageRef, r *rng, selectEach bool) (int, error) {
	n := 10
	if selectEach {
		n = 20
	}
	list, err := st.Titles(ctx, custID, kb.TitleQuery{VendorID: ref.VendorID, PackageID: ref.PackageID, OrderBy: kb.OrderName, Page: kb.Page{Count: n, Number: 1}})
	if err != nil {
		return 0, fmt.Errorf("list titles of package %d: %w", ref.PackageID, err)
	}
	for i, t := range list.Titles {
		u := kb.ResourceUpdate{Selected: true}
		if !selectEach {
			resourceChange(&u, r, i, ref.Type)
		}
		if err := st.UpdateResource(ctx, custID, ref.VendorID, ref.PackageID, t.ID, u); err != nil {
			return i, fmt.Errorf("customise title %d in package %d: %w", t.ID, ref.PackageID, err)
		}
	}
	return len(list.Titles), nil
}

// resourceChange sets the i-th customisation of a package's titles: each
// kind in turn, with drawn values. A title of a Complete package is hidden
// instead of deselected.
func resourceChange(u *kb.ResourceUpdate, r *rng, i int, t kb.PackageType) {
	year := strconv.Itoa(1995 + r.intn(25))
	switch i % 7 {
	case 0:
		if t == kb.PackageComplete {
			u.Hidden = true
		} else {
			u.Selected = false
		}
	case 1:
		u.Hidden = true
	case 2:
		u.CustomCoverage = []kb.Coverage{{Begin: year + "-01-01", End: ""}}
	case 3:
		u.CustomEmbargo = kb.Embargo{Unit: kb.EmbargoMonths, Value: 6 + 6*r.intn(4)}
	case 4:
		u.CoverageStatement = "Available from " + year + " through the library's subscription."
	case 5:
		u.Proxy = &kb.ProxyRef{ID: genProxies[r.intn(len(genProxies))].ID}
	case 6:
		u.UserDefined = [5]string{"fund " + strconv.Itoa(100+r.intn(900)), "", "licence " + year}
	}
}

// fnvString extends h with s.
func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
