package kb

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// referenceIssueRanges is IssueRangesFromKBART written plainly: every row
// split whole.
func referenceIssueRanges(rows string) []IssueRange {
	var out []IssueRange
	for _, line := range strings.Split(rows, "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		get := func(i int) string {
			if i < len(f) {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		var r IssueRange
		r.Coverage, _ = referenceCoverage(get(kbartDateFirst), get(kbartDateLast))
		r.FirstVolume, r.FirstIssue = leadingNumber(get(kbartVolFirst)), leadingNumber(get(kbartIssueFirst))
		r.LastVolume, r.LastIssue = leadingNumber(get(kbartVolLast)), leadingNumber(get(kbartIssueLast))
		out = append(out, r)
	}
	return out
}

// referenceCoverage is CoverageFromKBART with full dates read by
// time.Parse.
func referenceCoverage(first, last string) (Coverage, bool) {
	exp := func(s string, end bool) (string, bool) {
		if len(s) == 10 {
			t, err := time.Parse(time.DateOnly, s)
			if err != nil {
				return "", false
			}
			return t.Format(time.DateOnly), true
		}
		return expandDate(s, end)
	}
	b, ok := exp(first, false)
	if !ok {
		return Coverage{}, false
	}
	e, _ := exp(last, true)
	return Coverage{Begin: b, End: e}, true
}

// TestIssueRangesFromKBARTMatchesReference draws KBART rows of every
// shape (short rows, spaces, dates valid and not, volumes with text) and
// compares IssueRangesFromKBART with the plain reference.
func TestIssueRangesFromKBARTMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 2))
	dates := []string{"", "1997", "1997-02", "1997-02-28", "1996-02-29", "1997-02-29", "1997-02-30", "1997-13-01", "1997-00-10",
		"1997-04-31", "0000-01-01", "9999-12-31", "19x7-01-01", "1997/01/01", "1997-1-01", " 2001-03-04 ", "2001-03-04x", "abcd-ef-gh"}
	vols := []string{"", "1", "12", "007", "3a", "x", " 4 ", "100001", "-2"}
	for range 5000 {
		var rows []string
		for range rng.IntN(4) {
			f := make([]string, rng.IntN(12))
			for i := range f {
				switch i {
				case kbartDateFirst, kbartDateLast:
					f[i] = dates[rng.IntN(len(dates))]
				case kbartVolFirst, kbartIssueFirst, kbartVolLast, kbartIssueLast:
					f[i] = vols[rng.IntN(len(vols))]
				default:
					f[i] = "text"
				}
			}
			rows = append(rows, strings.Join(f, "\t"))
		}
		s := strings.Join(rows, "\n")
		if rng.IntN(4) == 0 {
			s += "\n"
		}
		if diff := cmp.Diff(referenceIssueRanges(s), IssueRangesFromKBART(s)); diff != "" {
			t.Fatalf("IssueRangesFromKBART(%q) (-reference +got):\n%s", s, diff)
		}
	}
}

func TestExpandFullDates(t *testing.T) {
	for _, s := range []string{"2001-03-04", "2000-02-29", "1900-02-29", "2001-04-31", "2001-00-01", "2001-12-00", "0000-01-01", "2001-03-4x", "2001x03-04"} {
		want, wantOK := referenceCoverage(s, "")
		got, ok := CoverageFromKBART(s, "")
		if got != want || ok != wantOK {
			t.Errorf("CoverageFromKBART(%q) = %v, %v; time.Parse gives %v, %v", s, got, ok, want, wantOK)
		}
	}
}
