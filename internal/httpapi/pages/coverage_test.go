package pages

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestCoverageWords(t *testing.T) {
	years := []kb.Coverage{{Begin: "2001-01-01", End: "2005-12-31"}}
	tests := []struct {
		name string
		r    kb.Resource
		want string
	}{
		{"nothing", kb.Resource{}, ""},
		{"whole years", kb.Resource{ManagedCoverage: years}, "From 2001 to 2005."},
		{"open end", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "1998-01-01"}}}, "From 1998 to present."},
		{"open beginning", kb.Resource{ManagedCoverage: []kb.Coverage{{End: "1998-12-31"}}}, "Up to 1998."},
		{"months and days", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2001-03-01", End: "2002-06-15"}}},
			"From March 2001 to 15 June 2002."},
		{"one year", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2001-01-01", End: "2001-12-31"}}}, "2001 only."},
		{"two ranges", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2010-01-01"}, {Begin: "1990-01-01", End: "1995-12-31"}}},
			"From 2010 to present; from 1990 to 1995."},
		{"custom wins", kb.Resource{ManagedCoverage: years, CustomCoverage: []kb.Coverage{{Begin: "2003-01-01"}}}, "From 2003 to present."},
		{"embargo", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2000-01-01"}}, ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}},
			"From 2000 to present, except the most recent 6 months."},
		{"custom embargo wins, singular", kb.Resource{ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6},
			CustomEmbargo: kb.Embargo{Unit: kb.EmbargoYears, Value: 1}}, "Except the most recent year."},
		{"odd date kept", kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2001"}}}, "From 2001 to present."},
	}
	for _, tt := range tests {
		if got := coverageWords(tt.r); got != tt.want {
			t.Errorf("%s: coverageWords = %q, want %q", tt.name, got, tt.want)
		}
	}
}
