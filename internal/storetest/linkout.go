package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testLinkOut: the link-signing secret is created once and then stable;
// a resource has a link only while it is in the customer's collection; the
// link carries the mask of the resource's effective proxy; link-outs are
// counted per customer and resource.
func testLinkOut(t *testing.T, s Store) {
	t.Run("Secret", func(t *testing.T) { testLinkSecret(t, s) })
	f := LoadFixture(t, s)
	t.Run("Collection", func(t *testing.T) { testResourceLinkCollection(t, s, f) })
	t.Run("Proxy", func(t *testing.T) { testResourceLinkProxy(t, s, f) })
	t.Run("Counts", func(t *testing.T) { testLinkOutCounts(t, s, f) })
}

// testLinkSecret runs first on an empty store, so that the goroutines race
// to create the secret.
func testLinkSecret(t *testing.T, s Store) {
	ctx := context.Background()
	const n = 8
	secrets := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { secrets[i], errs[i] = s.LinkSecret(ctx) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("LinkSecret: %v", errs[i])
		}
		if !bytes.Equal(secrets[i], secrets[0]) {
			t.Fatalf("concurrent first calls gave different secrets")
		}
	}
	if len(secrets[0]) < kb.MinLinkSecretLen {
		t.Fatalf("secret has %d bytes, want at least %d", len(secrets[0]), kb.MinLinkSecretLen)
	}
	if bytes.Equal(secrets[0], make([]byte, len(secrets[0]))) {
		t.Fatal("secret is all zero bytes")
	}
	// The caller's copy is its own.
	want := bytes.Clone(secrets[0])
	secrets[0][0] ^= 0xff
	if got := must[[]byte](t)(s.LinkSecret(ctx)); !bytes.Equal(got, want) {
		t.Error("changing a returned secret changed the store's")
	}
}

func testResourceLinkCollection(t *testing.T, s kb.Store, f Fixture) {
	ctx := context.Background()
	jot := titleID(t, s, TestingPrintISSN)
	goBook := titleID(t, s, GoISBN13)
	inJournals := kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: jot}
	yes, no := true, false
	pkgState := func(st kb.PackageState) func() error {
		return func() error { return s.SetPackageState(ctx, "c1", f.AlphaJournals, st) }
	}
	resState := func(st kb.ResourceState) func() error {
		return func() error { return s.SetResourceState(ctx, "c1", f.AlphaJournals, jot, st) }
	}
	steps := []struct {
		name   string
		change []func() error
		found  bool
	}{
		{"nothing selected", nil, false},
		{"package selected", []func() error{pkgState(kb.PackageState{Selected: true})}, true},
		{"title deselected in the selected package", []func() error{resState(kb.ResourceState{Selected: &no})}, false},
		{"title hidden in the selected package", []func() error{resState(kb.ResourceState{Hidden: true})}, false},
		{"title selected and hidden", []func() error{resState(kb.ResourceState{Selected: &yes, Hidden: true})}, false},
		{"package hidden", []func() error{resState(kb.ResourceState{}), pkgState(kb.PackageState{Selected: true, Hidden: true})}, false},
		{"package visible again", []func() error{pkgState(kb.PackageState{Selected: true})}, true},
		{"package deselected", []func() error{pkgState(kb.PackageState{})}, false},
		{"title selected alone", []func() error{resState(kb.ResourceState{Selected: &yes})}, true},
		{"title selected alone, package hidden", []func() error{pkgState(kb.PackageState{Hidden: true})}, false},
		{"title selected alone, package visible", []func() error{pkgState(kb.PackageState{})}, true},
	}
	for _, st := range steps {
		for _, change := range st.change {
			if err := change(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		l, err := s.ResourceLink(ctx, "c1", inJournals)
		if !st.found {
			if kb.ErrorCode(err) != kb.CodeNotFound {
				t.Errorf("%s: ResourceLink = %+v, %v; want CodeNotFound", st.name, l, err)
			}
			continue
		}
		want := kb.ResourceLink{URL: "https://alpha.example/jot"}
		if err != nil || l != want {
			t.Errorf("%s: ResourceLink = %+v, %v; want %+v", st.name, l, err, want)
		}
	}

	// The resource is in c1's collection, not in anyone else's, and only
	// in its own package.
	notFound := []struct {
		name string
		cust string
		key  kb.ResourceKey
	}{
		{"another customer", "c2", inJournals},
		{"unknown customer", "nobody", inJournals},
		{"title not in the package", "c1", kb.ResourceKey{PackageID: f.AlphaBooks, TitleID: jot}},
		{"unknown title", "c1", kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: 999999}},
		{"unknown package", "c1", kb.ResourceKey{PackageID: 999999, TitleID: jot}},
		{"unselected package", "c1", kb.ResourceKey{PackageID: f.AlphaBooks, TitleID: goBook}},
	}
	for _, tc := range notFound {
		if l, err := s.ResourceLink(ctx, tc.cust, tc.key); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("%s: ResourceLink = %+v, %v; want CodeNotFound", tc.name, l, err)
		}
	}

	// A custom package is in its customer's collection at creation, and
	// never in another customer's.
	custom := must[int64](t)(s.CreateCustomPackage(ctx, "c1", f.C1Vendor, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEBook}))
	gazette := must[int64](t)(s.CreateCustomTitle(ctx, "c1", f.C1Vendor, custom, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local Gazette", PubType: kb.ResourceNewspaper, URL: "https://town.example/gazette"}}))
	inCustom := kb.ResourceKey{PackageID: custom, TitleID: gazette}
	if l, err := s.ResourceLink(ctx, "c1", inCustom); err != nil || l.URL != "https://town.example/gazette" {
		t.Errorf("c1's custom title: ResourceLink = %+v, %v", l, err)
	}
	if l, err := s.ResourceLink(ctx, "c2", inCustom); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("c1's custom title for c2: ResourceLink = %+v, %v; want CodeNotFound", l, err)
	}
}

func testResourceLinkProxy(t *testing.T, s kb.Store, f Fixture) {
	ctx := context.Background()
	jot := titleID(t, s, TestingPrintISSN)
	key := kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: jot}
	mask := func(id string) string { return "https://" + id + ".example/login?url={targetURL}" }
	for _, id := range []string{"ROOT", "VEND", "PKG", "RES"} {
		if err := s.AddProxy(ctx, "c1", kb.Proxy{ID: id, Name: id, URLMask: mask(id)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetPackageState(ctx, "c1", f.AlphaJournals, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change func() error
		want   string // the link's proxy mask
	}{
		{"no proxy anywhere", nil, ""},
		{"root", func() error { return s.UpdateRoot(ctx, "c1", kb.RootSettings{ProxyID: "ROOT"}) }, mask("ROOT")},
		{"vendor over root", func() error {
			return s.UpdateVendor(ctx, "c1", f.AlphaVendor, kb.VendorUpdate{Proxy: kb.ProxyRef{ID: "VEND"}})
		}, mask("VEND")},
		{"package over vendor", func() error {
			return s.UpdatePackage(ctx, "c1", f.AlphaVendor, f.AlphaJournals, kb.PackageUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: "PKG"}})
		}, mask("PKG")},
		{"resource over package", func() error {
			return s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: "RES"}})
		}, mask("RES")},
		{"resource says none", func() error {
			return s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true, Proxy: &kb.ProxyRef{ID: kb.NoProxyID}})
		}, ""},
		{"resource inherits again", func() error {
			return s.UpdateResource(ctx, "c1", f.AlphaVendor, f.AlphaJournals, jot, kb.ResourceUpdate{Selected: true})
		}, mask("PKG")},
		{"package's proxy removed: no proxy", func() error { return s.RemoveProxy(ctx, "c1", "PKG") }, ""},
	}
	for _, st := range steps {
		if st.change != nil {
			if err := st.change(); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		l, err := s.ResourceLink(ctx, "c1", key)
		if err != nil || l.ProxyMask != st.want || l.URL != "https://alpha.example/jot" {
			t.Errorf("%s: ResourceLink = %+v, %v; want mask %q", st.name, l, err, st.want)
		}
		// The fixture has no vendor or package tokens.
		if l.VendorToken != nil || l.PackageToken != nil {
			t.Errorf("%s: tokens %+v, %+v; want none", st.name, l.VendorToken, l.PackageToken)
		}
	}
	// c2 selects the same resource: none of c1's proxies apply.
	if err := s.SetPackageState(ctx, "c2", f.AlphaJournals, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	if l, err := s.ResourceLink(ctx, "c2", key); err != nil || l.ProxyMask != "" {
		t.Errorf("c2: ResourceLink = %+v, %v; want no proxy", l, err)
	}
}

func testLinkOutCounts(t *testing.T, s kb.Store, f Fixture) {
	ctx := context.Background()
	jot := titleID(t, s, TestingPrintISSN)
	a := kb.ResourceKey{PackageID: f.AlphaJournals, TitleID: jot}
	b := kb.ResourceKey{PackageID: f.BetaFull, TitleID: jot}
	count := func(cust string, k kb.ResourceKey) int64 {
		t.Helper()
		return must[int64](t)(s.LinkOutCount(ctx, cust, k))
	}
	if n := count("c1", a); n != 0 {
		t.Errorf("count before any link-out = %d, want 0", n)
	}
	for range 3 {
		if err := s.CountLinkOut(ctx, "c1", a, kb.ViaAZ); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CountLinkOut(ctx, "c2", a, kb.ViaAZ); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cust string
		key  kb.ResourceKey
		want int64
	}{
		{"c1", a, 3},
		{"c2", a, 1},
		{"c1", b, 0},
		{"nobody", a, 0},
	} {
		if n := count(tc.cust, tc.key); n != tc.want {
			t.Errorf("LinkOutCount(%s, %+v) = %d, want %d", tc.cust, tc.key, n, tc.want)
		}
	}
}
