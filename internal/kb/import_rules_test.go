package kb

import "testing"

func TestSameItem(t *testing.T) {
	for _, tc := range []struct {
		name       string
		a, b       ItemKey
		sameImport bool
		want       bool
	}{
		{"same title_id", ItemKey{"a", "u1"}, ItemKey{"a", "u2"}, true, true},
		{"different title_ids", ItemKey{"a", "u"}, ItemKey{"b", "u"}, true, false},
		{"different title_ids across imports", ItemKey{"a", "u"}, ItemKey{"b", "u"}, false, false},
		{"no title_ids, same URL", ItemKey{"", "u"}, ItemKey{"", "u"}, true, true},
		{"no title_ids, different URLs", ItemKey{"", "u1"}, ItemKey{"", "u2"}, true, false},
		{"no title_ids, a new URL across imports", ItemKey{"", "u1"}, ItemKey{"", "u2"}, false, true},
		{"one URL missing", ItemKey{"", ""}, ItemKey{"", "u2"}, true, true},
		{"one title_id missing, different URLs", ItemKey{"a", "u1"}, ItemKey{"", "u2"}, true, false},
		{"one title_id missing across imports", ItemKey{"a", "u1"}, ItemKey{"", "u2"}, false, true},
	} {
		if got := SameItem(tc.a, tc.b, tc.sameImport); got != tc.want {
			t.Errorf("%s: SameItem(%+v, %+v, %v) = %v, want %v", tc.name, tc.a, tc.b, tc.sameImport, got, tc.want)
		}
	}
}

func TestTitleSource(t *testing.T) {
	p := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		name         string
		source       *int64
		pkg          int64
		owns, claims bool
	}{
		{"its source", p(7), 7, true, false},
		{"another package", p(7), 8, false, false},
		{"no source: the importing package takes it", nil, 8, true, true},
	} {
		owns, claims := TitleSource(tc.source, tc.pkg)
		if owns != tc.owns || claims != tc.claims {
			t.Errorf("%s: TitleSource = %v, %v; want %v, %v", tc.name, owns, claims, tc.owns, tc.claims)
		}
	}
}
