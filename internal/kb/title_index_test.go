package kb

import "testing"

func TestSelectionStateEqual(t *testing.T) {
	base := SelectionState{Packages: []int64{1, 2}, Titles: []TitleChoice{{PackageID: 1, TitleID: 7, Selected: true}},
		HiddenPackages: []int64{3}, HiddenTitles: []ResourceKey{{PackageID: 2, TitleID: 9}}}
	for _, tc := range []struct {
		name string
		o    SelectionState
		want bool
	}{
		{"same", SelectionState{Packages: []int64{1, 2}, Titles: []TitleChoice{{PackageID: 1, TitleID: 7, Selected: true}},
			HiddenPackages: []int64{3}, HiddenTitles: []ResourceKey{{PackageID: 2, TitleID: 9}}}, true},
		{"a package more", SelectionState{Packages: []int64{1, 2, 4}, Titles: base.Titles, HiddenPackages: base.HiddenPackages, HiddenTitles: base.HiddenTitles}, false},
		{"a title deselected", SelectionState{Packages: base.Packages, Titles: []TitleChoice{{PackageID: 1, TitleID: 7}},
			HiddenPackages: base.HiddenPackages, HiddenTitles: base.HiddenTitles}, false},
		{"no hidden package", SelectionState{Packages: base.Packages, Titles: base.Titles, HiddenTitles: base.HiddenTitles}, false},
		{"another hidden title", SelectionState{Packages: base.Packages, Titles: base.Titles, HiddenPackages: base.HiddenPackages,
			HiddenTitles: []ResourceKey{{PackageID: 2, TitleID: 8}}}, false},
	} {
		if got := base.Equal(tc.o); got != tc.want {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.want)
		}
	}
}
