package kbsql

import (
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestSchemaCurrent(t *testing.T) {
	cases := []struct {
		applied, known int
		want           string // in the error; "" for none
	}{
		{5, 5, ""},
		{3, 5, "schema at migration 3, this build needs 5"},
		{0, 5, "schema at migration 0, this build needs 5"},
		{6, 5, "schema at migration 6, this build knows only 5: a newer kbserver"},
	}
	for _, c := range cases {
		err := SchemaCurrent(c.applied, c.known)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("SchemaCurrent(%d, %d) = %v, want %q", c.applied, c.known, err, c.want)
		}
	}
}

func TestBuildCounters(t *testing.T) {
	var c BuildCounters
	c.Done(true, 2*time.Second)
	c.Done(true, time.Second)
	c.Done(false, 500*time.Millisecond)
	var st kb.StoreStats
	c.Fill(&st)
	if st.SnapshotBuildsCompleted != 2 || st.SnapshotBuildsFailed != 1 || st.SnapshotBuildSeconds != 3.5 {
		t.Errorf("after 2 completed and 1 failed build: %+v", st)
	}
}
