package gen

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestParseCustomerSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CustomerSpec
		ok   bool
	}{
		{"big=1500000", CustomerSpec{"big", 1_500_000}, true},
		{" big = 1_500_000 ", CustomerSpec{"big", 1_500_000}, true},
		{"big", CustomerSpec{}, false},
		{"=5", CustomerSpec{}, false},
		{"big=0", CustomerSpec{}, false},
		{"big=x", CustomerSpec{}, false},
	} {
		got, err := ParseCustomerSpec(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCustomerSpec(%q) = %+v, %v; want %+v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// A Complete package's titles go with it: the generated customisations
// never select them one by one nor deselect one (the store refuses both).
func TestCustomisationsRespectCompletePackages(t *testing.T) {
	byTitle, deselected := 0, 0
	for p := range 5000 {
		for _, typ := range []kb.PackageType{kb.PackageSelectable, kb.PackageComplete} {
			r := newRNG(1, uint64(p))
			if _, bt := packageUpdate(&r, typ); bt {
				if typ == kb.PackageComplete {
					t.Fatalf("package %d: a Complete package selected title by title", p)
				}
				byTitle++
			}
			for i := range 7 {
				u := kb.ResourceUpdate{Selected: true}
				resourceChange(&u, &r, i, typ)
				if !u.Selected {
					if typ == kb.PackageComplete {
						t.Fatalf("title %d of Complete package %d deselected", i, p)
					}
					deselected++
				}
			}
		}
	}
	if byTitle == 0 || deselected == 0 {
		t.Errorf("selectable packages: %d selected title by title, %d titles deselected; want some of each", byTitle, deselected)
	}
}
