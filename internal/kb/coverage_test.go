package kb

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCoverageFromKBART(t *testing.T) {
	tests := []struct {
		first, last string
		want        Coverage
		ok          bool
	}{
		{"1997-01-15", "2003-12-31", Coverage{"1997-01-15", "2003-12-31"}, true},
		{"1997", "2003", Coverage{"1997-01-01", "2003-12-31"}, true},
		{"1997-02", "2004-02", Coverage{"1997-02-01", "2004-02-29"}, true},
		{"1997", "", Coverage{"1997-01-01", ""}, true},
		{"", "2003", Coverage{}, false},
		{"19xx", "", Coverage{}, false},
		{"1997-13", "", Coverage{}, false},
		{"1997-02-30", "", Coverage{}, false},
		{"2001", "garbage", Coverage{"2001-01-01", ""}, true},
	}
	for _, tt := range tests {
		got, ok := CoverageFromKBART(tt.first, tt.last)
		if ok != tt.ok || got != tt.want {
			t.Errorf("CoverageFromKBART(%q, %q) = %v, %v; want %v, %v", tt.first, tt.last, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSortCoverage(t *testing.T) {
	cs := []Coverage{{"1990-01-01", "1995-12-31"}, {"2001-01-01", ""}, {"2001-01-01", "2005-01-01"}, {"1996-01-01", "2000-12-31"}}
	SortCoverage(cs)
	want := []Coverage{{"2001-01-01", ""}, {"2001-01-01", "2005-01-01"}, {"1996-01-01", "2000-12-31"}, {"1990-01-01", "1995-12-31"}}
	if diff := cmp.Diff(want, cs); diff != "" {
		t.Errorf("SortCoverage (-want +got):\n%s", diff)
	}
}
