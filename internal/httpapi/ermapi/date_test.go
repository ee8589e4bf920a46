package ermapi

import "testing"

func TestCheckDateForms(t *testing.T) {
	for _, tc := range []struct {
		v  string
		ok bool
	}{
		{"2024-01-31", true}, {"2024-01-31T00:00:00Z", true}, {"2024-01-31T00:00:00.000+0000", true},
		{"2024-01-31T00:00:00", true}, {"2024-01-31T10:20:30.5-05:00", true},
		{"2024-02-30", false}, {"2024-1-31", false}, {"31/01/2024", false}, {"2024-01-31T25:00:00Z", false}, {"2024-01-31T00:00Z", false}, {"", true},
	} {
		if err := checkDate("licenseStartDate", tc.v); (err == nil) != tc.ok {
			t.Errorf("checkDate(%q) = %v, want ok %v", tc.v, err, tc.ok)
		}
	}
}
