package kb

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// day reads a yyyy-mm-dd date for a test.
func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEmbargoCutoff(t *testing.T) {
	tests := []struct {
		today string
		e     Embargo
		want  string
	}{
		{"2025-06-15", Embargo{}, ""},
		{"2025-06-15", Embargo{Unit: EmbargoYears}, ""},
		{"2025-06-15", Embargo{Unit: EmbargoYears, Value: -1}, ""},
		{"2025-06-15", Embargo{Unit: EmbargoNone, Value: 3}, ""},
		{"2025-06-15", Embargo{Unit: EmbargoDays, Value: 1}, "2025-06-14"},
		{"2025-06-15", Embargo{Unit: EmbargoDays, Value: 30}, "2025-05-16"},
		{"2025-03-01", Embargo{Unit: EmbargoDays, Value: 1}, "2025-02-28"},
		{"2025-06-15", Embargo{Unit: EmbargoWeeks, Value: 2}, "2025-06-01"},
		{"2025-06-15", Embargo{Unit: EmbargoMonths, Value: 6}, "2024-12-15"},
		{"2025-06-15", Embargo{Unit: EmbargoMonths, Value: 12}, "2024-06-15"},
		{"2025-06-15", Embargo{Unit: EmbargoYears, Value: 1}, "2024-06-15"},
		{"2025-06-15", Embargo{Unit: EmbargoYears, Value: 5}, "2020-06-15"},
		// A month back from the last day of a month is the last day of
		// the shorter month before, not a day of the same month.
		{"2025-03-31", Embargo{Unit: EmbargoMonths, Value: 1}, "2025-02-28"},
		{"2024-03-31", Embargo{Unit: EmbargoMonths, Value: 1}, "2024-02-29"},
		{"2025-05-31", Embargo{Unit: EmbargoMonths, Value: 3}, "2025-02-28"},
		{"2025-07-31", Embargo{Unit: EmbargoMonths, Value: 1}, "2025-06-30"},
		{"2025-03-30", Embargo{Unit: EmbargoMonths, Value: 13}, "2024-02-29"},
		{"2024-02-29", Embargo{Unit: EmbargoYears, Value: 1}, "2023-02-28"},
		{"2024-02-29", Embargo{Unit: EmbargoYears, Value: 4}, "2020-02-29"},
	}
	for _, tt := range tests {
		if got := EmbargoCutoff(tt.e, day(t, tt.today)); got != tt.want {
			t.Errorf("EmbargoCutoff(%+v, %s) = %q, want %q", tt.e, tt.today, got, tt.want)
		}
	}
}

func TestEffectiveCoverageAndEmbargo(t *testing.T) {
	managed := []Coverage{{Begin: "1990-01-01"}}
	custom := []Coverage{{Begin: "2010-01-01", End: "2015-12-31"}}
	if got := EffectiveCoverage(Resource{ManagedCoverage: managed}); !cmp.Equal(got, managed) {
		t.Errorf("managed only: %v", got)
	}
	if got := EffectiveCoverage(Resource{ManagedCoverage: managed, CustomCoverage: custom}); !cmp.Equal(got, custom) {
		t.Errorf("custom replaces managed: %v", got)
	}
	if got := EffectiveCoverage(Resource{}); len(got) != 0 {
		t.Errorf("none: %v", got)
	}
	year, month := Embargo{Unit: EmbargoYears, Value: 1}, Embargo{Unit: EmbargoMonths, Value: 6}
	for _, tt := range []struct {
		r    Resource
		want Embargo
	}{
		{Resource{}, Embargo{}},
		{Resource{ManagedEmbargo: year}, year},
		{Resource{ManagedEmbargo: year, CustomEmbargo: month}, month},
		{Resource{CustomEmbargo: month}, month},
		{Resource{ManagedEmbargo: year, CustomEmbargo: Embargo{Unit: EmbargoMonths}}, year},
		{Resource{ManagedEmbargo: Embargo{Unit: EmbargoYears}}, Embargo{}},
	} {
		if got := EffectiveEmbargo(tt.r); got != tt.want {
			t.Errorf("EffectiveEmbargo(managed %+v, custom %+v) = %+v, want %+v", tt.r.ManagedEmbargo, tt.r.CustomEmbargo, got, tt.want)
		}
	}
}

func TestJudgeDate(t *testing.T) {
	const url = "https://a.example/j"
	two := []Coverage{{Begin: "2005-01-01"}, {Begin: "1990-01-01", End: "1999-12-31"}}
	closed := []Coverage{{Begin: "1990-01-01", End: "1999-12-31"}}
	tests := []struct {
		name string
		date string
		r    Resource
		want Reason
	}{
		{"a year inside", "1995", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		{"a day inside", "1995-06-10", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		{"the first day", "1990-01-01", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		{"the day before the first", "1989-12-31", Resource{ManagedCoverage: two, URL: url}, ReasonBefore},
		{"a year before", "1985", Resource{ManagedCoverage: two, URL: url}, ReasonBefore},
		{"in the gap", "2001", Resource{ManagedCoverage: two, URL: url}, ReasonGap},
		{"the gap's first month", "2000-01", Resource{ManagedCoverage: two, URL: url}, ReasonGap},
		{"the gap's last day", "2004-12-31", Resource{ManagedCoverage: two, URL: url}, ReasonGap},
		{"the last month of a range", "1999-12", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		{"an open range, today", "2025-06-15", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		{"an open range, this year", "2025", Resource{ManagedCoverage: two, URL: url}, ReasonCovered},
		// A range without an end runs to today: a citation dated after
		// today is after it.
		{"an open range, tomorrow", "2025-06-16", Resource{ManagedCoverage: two, URL: url}, ReasonAfter},
		{"an open range, next year", "2026", Resource{ManagedCoverage: two, URL: url}, ReasonAfter},
		{"a year that overlaps a range's start", "1995", Resource{ManagedCoverage: []Coverage{{Begin: "1995-07-01"}}, URL: url}, ReasonCovered},
		{"a month that overlaps a range's end", "1999-12", Resource{ManagedCoverage: []Coverage{{Begin: "1990-01-01", End: "1999-12-10"}}, URL: url}, ReasonCovered},
		{"after a closed range", "2000", Resource{ManagedCoverage: closed, URL: url}, ReasonAfter},
		{"the day after a closed range", "2000-01-01", Resource{ManagedCoverage: closed, URL: url}, ReasonAfter},
		{"before a range that begins after today, after another", "2025-06-20",
			Resource{ManagedCoverage: []Coverage{{Begin: "2026-01-01"}, {Begin: "1990-01-01", End: "1999-12-31"}}, URL: url}, ReasonGap},
		{"before a range that begins after today", "2025-06-20", Resource{ManagedCoverage: []Coverage{{Begin: "2026-01-01"}}, URL: url}, ReasonBefore},
		{"no coverage is every date", "1800", Resource{URL: url}, ReasonCovered},
		{"no coverage, next year", "2026", Resource{URL: url}, ReasonCovered},
		{"custom coverage replaces managed: before", "1995", Resource{ManagedCoverage: two, CustomCoverage: []Coverage{{Begin: "2010-01-01", End: "2015-12-31"}}, URL: url}, ReasonBefore},
		{"custom coverage replaces managed: inside", "2012", Resource{ManagedCoverage: two, CustomCoverage: []Coverage{{Begin: "2010-01-01", End: "2015-12-31"}}, URL: url}, ReasonCovered},
		{"custom coverage replaces managed: after", "2020", Resource{ManagedCoverage: two, CustomCoverage: []Coverage{{Begin: "2010-01-01", End: "2015-12-31"}}, URL: url}, ReasonAfter},
		{"custom coverage replaces managed: gap", "2003", Resource{ManagedCoverage: two, CustomCoverage: []Coverage{{Begin: "2005-01-01"}, {Begin: "1995-01-01", End: "2000-12-31"}}, URL: url}, ReasonGap},

		// Embargoes, counted back from 2025-06-15.
		{"a year's embargo: its cutoff day", "2024-06-15", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonCovered},
		{"a year's embargo: the day after", "2024-06-16", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonEmbargo},
		{"a year's embargo: the cutoff's month", "2024-06", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonCovered},
		{"a year's embargo: the month after", "2024-07", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonEmbargo},
		{"a year's embargo: the cutoff's year", "2024", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonCovered},
		{"a year's embargo: this year", "2025", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonEmbargo},
		{"30 days: the cutoff", "2025-05-16", Resource{ManagedEmbargo: Embargo{EmbargoDays, 30}, URL: url}, ReasonCovered},
		{"30 days: after it", "2025-05-17", Resource{ManagedEmbargo: Embargo{EmbargoDays, 30}, URL: url}, ReasonEmbargo},
		{"2 weeks: the cutoff", "2025-06-01", Resource{ManagedEmbargo: Embargo{EmbargoWeeks, 2}, URL: url}, ReasonCovered},
		{"2 weeks: after it", "2025-06-02", Resource{ManagedEmbargo: Embargo{EmbargoWeeks, 2}, URL: url}, ReasonEmbargo},
		{"2 weeks: this month began before", "2025-06", Resource{ManagedEmbargo: Embargo{EmbargoWeeks, 2}, URL: url}, ReasonCovered},
		{"6 months: the cutoff", "2024-12-15", Resource{ManagedEmbargo: Embargo{EmbargoMonths, 6}, URL: url}, ReasonCovered},
		{"6 months: after it", "2024-12-16", Resource{ManagedEmbargo: Embargo{EmbargoMonths, 6}, URL: url}, ReasonEmbargo},
		{"custom embargo replaces managed", "2025-01", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}, CustomEmbargo: Embargo{EmbargoMonths, 1}, URL: url}, ReasonCovered},
		{"custom embargo longer than managed", "2024-01", Resource{ManagedEmbargo: Embargo{EmbargoMonths, 1}, CustomEmbargo: Embargo{EmbargoYears, 2}, URL: url}, ReasonEmbargo},
		{"an embargo inside coverage", "2025", Resource{ManagedCoverage: two, ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonEmbargo},
		{"after a closed range is not the embargo", "2025", Resource{ManagedCoverage: closed, ManagedEmbargo: Embargo{EmbargoYears, 1}, URL: url}, ReasonAfter},
		{"before the coverage is not the embargo", "1985", Resource{ManagedCoverage: two, ManagedEmbargo: Embargo{EmbargoYears, 50}, URL: url}, ReasonBefore},

		// No URL.
		{"covered without a URL", "1995", Resource{ManagedCoverage: two}, ReasonNoURL},
		{"before without a URL", "1985", Resource{ManagedCoverage: two}, ReasonBefore},
		{"in the embargo without a URL", "2025", Resource{ManagedEmbargo: Embargo{EmbargoYears, 1}}, ReasonEmbargo},
	}
	today := day(t, "2025-06-15")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, dated := Judge(Citation{Date: tt.date, Volume: "3"}, tt.r, nil, today)
			if reason != tt.want || !dated {
				t.Errorf("Judge(%s) = %q, dated %v; want %q, dated", tt.date, reason, dated, tt.want)
			}
		})
	}
}

// kbartRow is a KBART row of a test: the dates and volumes of its
// coverage, the other fields empty but the title.
func kbartRow(first, vol1, issue1, last, vol2, issue2 string) string {
	return fmt.Sprintf("A Title\t\t\t%s\t%s\t%s\t%s\t%s\t%s\t\t\t\t\t\t\t\tserial", first, vol1, issue1, last, vol2, issue2)
}

func TestIssueRangesFromKBART(t *testing.T) {
	rows := kbartRow("1990", "1", "2", "1999-12", "10", "4") + "\n" +
		kbartRow("2005-03-01", "15 Suppl", "", "", "", "") + "\r\n" +
		kbartRow("", "v3", "", "2001", "999999", "7") + "\n" +
		"Short\t\t\t2010\n" +
		"\n"
	want := []IssueRange{
		{Coverage: Coverage{Begin: "1990-01-01", End: "1999-12-31"}, FirstVolume: 1, FirstIssue: 2, LastVolume: 10, LastIssue: 4},
		{Coverage: Coverage{Begin: "2005-03-01"}, FirstVolume: 15},
		{LastIssue: 7}, // no begin date: no coverage; "v3" and a volume past the limit are none
		{Coverage: Coverage{Begin: "2010-01-01"}},
	}
	if diff := cmp.Diff(want, IssueRangesFromKBART(rows)); diff != "" {
		t.Errorf("IssueRangesFromKBART (-want +got):\n%s", diff)
	}
	if got := IssueRangesFromKBART(""); len(got) != 0 {
		t.Errorf("no rows: %v", got)
	}
}

func TestJudgeVolume(t *testing.T) {
	const url = "https://a.example/j"
	today := day(t, "2025-06-15")
	oneToTen := kbartRow("1990", "1", "2", "1999", "10", "4")
	twoRanges := oneToTen + "\n" + kbartRow("2005", "15", "", "", "", "")
	tests := []struct {
		name          string
		volume, issue string
		rows          string
		r             Resource
		want          Reason
		dated         bool
	}{
		{"inside", "5", "", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"the first volume", "1", "", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"the first volume, its first issue", "1", "2", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"the first volume, an issue before", "1", "1", oneToTen, Resource{URL: url}, ReasonBefore, true},
		{"the last volume, its last issue", "10", "4", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"the last volume, an issue after", "10", "5", oneToTen, Resource{URL: url}, ReasonAfter, true},
		{"the last volume without an issue", "10", "", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"an issue in a middle volume", "5", "99", oneToTen, Resource{URL: url}, ReasonCovered, true},
		{"after", "11", "", oneToTen, Resource{URL: url}, ReasonAfter, true},
		{"between two ranges", "12", "", twoRanges, Resource{URL: url}, ReasonGap, true},
		{"in an open range", "200", "", twoRanges, Resource{URL: url}, ReasonCovered, true},
		{"no URL", "5", "", oneToTen, Resource{}, ReasonNoURL, true},
		{"ranges without volumes cannot be checked", "500", "", kbartRow("1990", "", "", "1999", "", ""), Resource{URL: url}, ReasonCovered, false},
		{"no rows cannot be checked", "500", "", "", Resource{URL: url}, ReasonCovered, false},
		{"a range with only a first volume runs on", "500", "", kbartRow("1990", "3", "", "", "", ""), Resource{URL: url}, ReasonCovered, true},
		{"before a range with only a first volume", "2", "", kbartRow("1990", "3", "", "", "", ""), Resource{URL: url}, ReasonBefore, true},
		{"a range with only a last volume", "1", "", kbartRow("1990", "", "", "1999", "10", ""), Resource{URL: url}, ReasonCovered, true},
		{"after a range with only a last volume", "11", "", kbartRow("1990", "", "", "1999", "10", ""), Resource{URL: url}, ReasonAfter, true},
		{"custom coverage: the volume is not checked", "500", "", oneToTen,
			Resource{URL: url, CustomCoverage: []Coverage{{Begin: "1990-01-01", End: "1991-12-31"}}}, ReasonCovered, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ranges []IssueRange
			if len(tt.r.CustomCoverage) == 0 {
				ranges = IssueRangesFromKBART(tt.rows)
			}
			reason, dated := Judge(Citation{Volume: tt.volume, Issue: tt.issue}, tt.r, ranges, today)
			if reason != tt.want || dated != tt.dated {
				t.Errorf("Judge(volume %s issue %s) = %q, dated %v; want %q, dated %v", tt.volume, tt.issue, reason, dated, tt.want, tt.dated)
			}
		})
	}
}

func TestJudgeWithoutDateOrVolume(t *testing.T) {
	today := day(t, "2025-06-15")
	r := Resource{URL: "u", ManagedCoverage: []Coverage{{Begin: "1990-01-01", End: "1991-12-31"}}, ManagedEmbargo: Embargo{EmbargoYears, 99}}
	for _, c := range []Citation{{}, {Issue: "3"}, {DOI: "10.1/x"}, {Title: "T", StartPage: "5"}} {
		if reason, dated := Judge(c, r, IssueRangesFromKBART(kbartRow("1990", "1", "", "1991", "2", "")), today); reason != ReasonCovered || dated {
			t.Errorf("Judge(%+v) = %q, dated %v; want covered (the title is held), not dated", c, reason, dated)
		}
	}
	r.URL = ""
	if reason, _ := Judge(Citation{}, r, nil, today); reason != ReasonNoURL {
		t.Errorf("without a URL: %q", reason)
	}
}

func TestResolverLinks(t *testing.T) {
	article := ResolvedLink{Level: LevelArticle, DOI: "10.1/x"}
	title := ResolvedLink{Level: LevelTitle}
	tests := []struct {
		name   string
		c      Citation
		reason Reason
		dated  bool
		want   []ResolvedLink
	}{
		{"a DOI, dated", Citation{DOI: "10.1/x"}, ReasonCovered, true, []ResolvedLink{article, title}},
		{"a DOI, not dated", Citation{DOI: "10.1/x"}, ReasonCovered, false, []ResolvedLink{title}},
		{"no DOI", Citation{}, ReasonCovered, true, []ResolvedLink{title}},
		{"not covered", Citation{DOI: "10.1/x"}, ReasonBefore, true, nil},
		{"in the embargo", Citation{DOI: "10.1/x"}, ReasonEmbargo, true, nil},
		{"no URL", Citation{DOI: "10.1/x"}, ReasonNoURL, true, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, ResolverLinks(tt.c, tt.reason, tt.dated)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestDOIURL(t *testing.T) {
	for doi, want := range map[string]string{
		"10.1000/182":                     "https://doi.org/10.1000/182",
		"10.1002/(SICI)1097-4636":         "https://doi.org/10.1002/(SICI)1097-4636",
		"10.1/a?b#c d%":                   "https://doi.org/10.1/a%3Fb%23c%20d%25",
		"10.1093/ajae/aaq063|x<y>":        "https://doi.org/10.1093/ajae/aaq063%7Cx%3Cy%3E",
		"10.1/x&url=https://evil.example": "https://doi.org/10.1/x%26url%3Dhttps%3A//evil.example",
		"10.1/é":                          "https://doi.org/10.1/%C3%A9",
		"10.1016/S0140-6736(20)30183-5":   "https://doi.org/10.1016/S0140-6736(20)30183-5",
	} {
		if got := DOIURL(doi); got != want {
			t.Errorf("DOIURL(%q) = %q, want %q", doi, got, want)
		}
	}
}

func TestSortResolved(t *testing.T) {
	res := func(name string, pkg, title int64, reason Reason, article bool, cov ...Coverage) Resolved {
		r := Resolved{Title: Title{ID: title}, Resource: Resource{PackageID: pkg, PackageName: name, TitleID: title, ManagedCoverage: cov}, Reason: reason}
		if reason == ReasonCovered {
			if article {
				r.Links = append(r.Links, ResolvedLink{Level: LevelArticle, DOI: "10.1/x"})
			}
			r.Links = append(r.Links, ResolvedLink{Level: LevelTitle})
		}
		return r
	}
	open := Coverage{Begin: "2000-01-01"}
	ended := func(end string) Coverage { return Coverage{Begin: "1990-01-01", End: end} }
	rs := []Resolved{
		res("A", 1, 1, ReasonBefore, false, open),
		res("B", 2, 1, ReasonCovered, false, ended("2010-12-31")),
		res("C", 3, 1, ReasonCovered, true, ended("2005-12-31")),
		res("D", 4, 1, ReasonCovered, false, open),
		res("D", 5, 1, ReasonCovered, false), // no coverage reaches as far as an open range
		res("E", 6, 1, ReasonCovered, false, ended("2020-12-31"), ended("2015-12-31")),
		res("C", 7, 1, ReasonCovered, true, open),
		res("A", 8, 2, ReasonNoURL, false, open),
		res("A", 8, 1, ReasonEmbargo, false, open),
		res("Z", 9, 1, ReasonAfter, false, ended("2020-12-31")),
	}
	SortResolved(rs)
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%s/%d/%d", r.Resource.PackageName, r.Resource.PackageID, r.Title.ID))
	}
	want := []string{
		"C/7/1", "C/3/1", // an article-level link first; the furthest coverage first
		"D/4/1", "D/5/1", "E/6/1", "B/2/1", // the full text: open first (by package name, then id), then by end
		"A/1/1", "A/8/1", "A/8/2", "Z/9/1", // no full text: open first, then by name, package and title
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SortResolved (-want +got):\n%s", diff)
	}
}
