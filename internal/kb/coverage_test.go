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

func TestCheckCoverageList(t *testing.T) {
	tests := []struct {
		name string
		cs   []Coverage
		msg  string // "" for valid
	}{
		{"empty", nil, ""},
		{"one open", []Coverage{{"2001-01-01", ""}}, ""},
		{"newest first", []Coverage{{"2010-01-01", ""}, {"2001-01-01", "2005-12-31"}, {"1990-01-01", "2000-12-31"}}, ""},
		{"touching", []Coverage{{"2005-01-01", ""}, {"2001-01-01", "2005-01-01"}}, ""},
		{"oldest first", []Coverage{{"2001-01-01", "2005-12-31"}, {"2010-01-01", ""}}, "CoverageList contains a date that exceeds a previous date value"},
		{"open later range", []Coverage{{"2010-01-01", ""}, {"2001-01-01", ""}}, "CoverageList contains a date that exceeds a previous date value"},
		{"end after next begin", []Coverage{{"2010-01-01", ""}, {"2001-01-01", "2011-01-01"}}, "CoverageList contains a date that exceeds a previous date value"},
		{"bad begin", []Coverage{{"2001-13-01", ""}}, "beginCoverage has an invalid date."},
		{"no begin", []Coverage{{"", "2001-01-01"}}, "beginCoverage has an invalid date."},
		{"year only", []Coverage{{"2001", ""}}, "beginCoverage has an invalid date."},
		{"bad end", []Coverage{{"2001-01-01", "2001/02/01"}}, "endCoverage has an invalid date."},
		{"reversed", []Coverage{{"2005-01-01", "2001-01-01"}}, "beginCoverage 2005-01-01 is after endCoverage 2001-01-01."},
	}
	for _, tt := range tests {
		err := CheckCoverageList(tt.cs)
		got := ""
		if err != nil {
			got = err.Error()
			if ErrorCode(err) != CodeInvalid {
				t.Errorf("%s: code %d, want %d", tt.name, ErrorCode(err), CodeInvalid)
			}
		}
		if got != tt.msg {
			t.Errorf("%s: CheckCoverageList = %q, want %q", tt.name, got, tt.msg)
		}
	}
}
