package storetest

import (
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// testLinkUse: the link-out clicks of titles by package and month, from
// the A–Z page and the resolver apart, of one customer only, in the
// months asked for.
func testLinkUse(t *testing.T, s Store) {
	ctx := t.Context()
	fx := LoadFixture(t, s)
	l := must[kb.TitleList](t)(s.Titles(ctx, "c1", kb.TitleQuery{VendorID: fx.AlphaVendor, PackageID: fx.AlphaJournals, Page: kb.Page{Count: 10, Number: 1}}))
	a, b := l.Titles[0].ID, l.Titles[1].ID
	for _, c := range []struct {
		cust string
		key  kb.ResourceKey
		via  kb.LinkVia
	}{
		{"c1", kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, kb.ViaAZ},
		{"c1", kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, kb.ViaAZ},
		{"c1", kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, kb.ViaResolver},
		{"c1", kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: b}, kb.ViaResolver},
		{"c2", kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, kb.ViaAZ},
	} {
		if err := s.CountLinkOut(ctx, c.cust, c.key, c.via); err != nil {
			t.Fatal(err)
		}
	}
	now := kb.MonthOf(time.Now())
	uses := must[[]kb.LinkUse](t)(s.LinkOutUse(ctx, "c1", []int64{a}, now.AddMonths(-11), now))
	if len(uses) != 1 || uses[0] != (kb.LinkUse{Key: kb.ResourceKey{PackageID: fx.AlphaJournals, TitleID: a}, Month: now, AZ: 2, Resolver: 1}) {
		t.Errorf("c1's use of title %d: %+v", a, uses)
	}
	if uses := must[[]kb.LinkUse](t)(s.LinkOutUse(ctx, "c1", []int64{a, b}, now.AddMonths(-11), now)); len(uses) != 2 {
		t.Errorf("c1's use of two titles: %+v", uses)
	}
	if uses := must[[]kb.LinkUse](t)(s.LinkOutUse(ctx, "c1", []int64{a}, now.AddMonths(-12), now.AddMonths(-1))); len(uses) != 0 {
		t.Errorf("c1's use before this month: %+v", uses)
	}
}
