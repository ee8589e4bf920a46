package kb

import "testing"

func TestContentTypeValidForPackage(t *testing.T) {
	for _, tc := range []struct {
		c    ContentType
		want bool
	}{
		{ContentAll, false},
		{ContentAggregatedFullText, true},
		{ContentEJournal, true},
		{ContentOnlineReference, true},
		{ContentOnlineReference + 1, false},
		{-1, false},
	} {
		if got := tc.c.ValidForPackage(); got != tc.want {
			t.Errorf("ContentType(%d).ValidForPackage() = %v, want %v", int(tc.c), got, tc.want)
		}
	}
}
