package storetest

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func testCustomers(t *testing.T, s Store) {
	ctx := context.Background()
	c, err := s.AddCustomer(ctx, "lib1", "Library One")
	if err != nil {
		t.Fatal(err)
	}
	if c.VendorID == 0 {
		t.Error("AddCustomer: no own vendor id")
	}
	_, err = s.AddCustomer(ctx, "lib1", "Again")
	wantCode(t, err, kb.CodeDuplicate)
	for _, bad := range []string{"", "a/b", "a b", "a.b"} {
		_, err = s.AddCustomer(ctx, bad, "x")
		if err == nil {
			t.Errorf("AddCustomer(%q) succeeded, want an error", bad)
		}
	}
	got, err := s.Customer(ctx, "lib1")
	if err != nil || got != c {
		t.Errorf("Customer = %+v, %v; want %+v", got, err, c)
	}
	_, err = s.Customer(ctx, "nobody")
	wantCode(t, err, kb.CodeNotFound)

	v, err := s.Vendor(ctx, "lib1", c.VendorID)
	if err != nil || !v.IsCustomer || v.Name != "Library One" {
		t.Errorf("own vendor = %+v, %v; want isCustomer named Library One", v, err)
	}

	root, err := s.Root(ctx, "lib1")
	if err != nil {
		t.Fatal(err)
	}
	if root.ProxyID != kb.NoProxyID {
		t.Errorf("root proxy = %q, want %q", root.ProxyID, kb.NoProxyID)
	}
	for i, l := range root.Labels {
		if l.ID != i+1 || l.DisplayLabel != "" || l.DisplayOnFullTextFinder || l.DisplayOnPublicationFinder {
			t.Errorf("label %d = %+v, want empty label with id %d", i, l, i+1)
		}
	}
	_, err = s.Root(ctx, "nobody")
	wantCode(t, err, kb.CodeNotFound)

	ps, err := s.Proxies(ctx, "lib1")
	if err != nil || len(ps) != 1 || ps[0].ID != kb.NoProxyID {
		t.Fatalf("Proxies = %+v, %v; want only the built-in entry", ps, err)
	}
	if err := s.AddProxy(ctx, "lib1", kb.Proxy{ID: "EZ", Name: "EZ proxy", URLMask: "https://p.example/login?url={targetURL}"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddProxy(ctx, "lib1", kb.Proxy{ID: kb.NoProxyID, Name: "x"}); err == nil {
		t.Error("AddProxy with the reserved id succeeded")
	}
	ps, _ = s.Proxies(ctx, "lib1")
	if len(ps) != 2 || ps[1].ID != "EZ" || ps[1].URLMask != "https://p.example/login?url={targetURL}" {
		t.Errorf("Proxies = %+v, want the built-in entry and EZ", ps)
	}
	_, err = s.Proxies(ctx, "nobody")
	wantCode(t, err, kb.CodeNotFound)
}

func testAPIKeys(t *testing.T, s Store) {
	ctx := context.Background()
	for _, id := range []string{"a", "b"} {
		if _, err := s.AddCustomer(ctx, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	ka, kb2 := kb.NewAPIKey(), kb.NewAPIKey()
	if ka == kb2 || len(ka) < 40 {
		t.Fatalf("NewAPIKey gave %q and %q", ka, kb2)
	}
	if err := s.AddAPIKey(ctx, "a", kb.HashAPIKey(ka), kb.Production); err != nil {
		t.Fatal(err)
	}
	if err := s.AddAPIKey(ctx, "b", kb.HashAPIKey(kb2), kb.Production); err != nil {
		t.Fatal(err)
	}
	err := s.AddAPIKey(ctx, "nobody", kb.HashAPIKey("x"), kb.Production)
	wantCode(t, err, kb.CodeNotFound)
	for key, want := range map[string]string{ka: "a", kb2: "b"} {
		got, err := s.LookupAPIKey(ctx, kb.HashAPIKey(key))
		if err != nil || got.CustomerID != want || got.ID == 0 {
			t.Errorf("LookupAPIKey = %+v, %v; want customer %q and an id", got, err, want)
		}
	}
	_, err = s.LookupAPIKey(ctx, kb.HashAPIKey("unknown"))
	wantCode(t, err, kb.CodeUnauthenticated)
	if err := s.RevokeAPIKey(ctx, kb.HashAPIKey(ka)); err != nil {
		t.Fatal(err)
	}
	_, err = s.LookupAPIKey(ctx, kb.HashAPIKey(ka))
	wantCode(t, err, kb.CodeUnauthenticated)
	wantCode(t, s.RevokeAPIKey(ctx, kb.HashAPIKey(ka)), kb.CodeNotFound)
	if got, err := s.LookupAPIKey(ctx, kb.HashAPIKey(kb2)); err != nil || got.CustomerID != "b" {
		t.Errorf("other key after revoke: %+v, %v", got, err)
	}
}
