package kb

import (
	"strings"
	"testing"
	"time"
)

func TestParseMonth(t *testing.T) {
	for s, want := range map[string]Month{
		"2024-01": "2024-01", "1999-12": "1999-12", "9999-12": "9999-12", "1000-01": "1000-01",
		"2024-13": "", "2024-00": "", "2024-1": "", "24-01": "", "2024/01": "", "0999-01": "", "": "", "2024-01-01": "", "２０２４-01": "",
	} {
		got, ok := ParseMonth(s)
		if got != want || ok != (want != "") {
			t.Errorf("ParseMonth(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func TestMonthArithmetic(t *testing.T) {
	if m := MonthOf(time.Date(2024, 3, 1, 0, 30, 0, 0, time.FixedZone("CET", 3600))); m != "2024-02" {
		t.Errorf("MonthOf 1 March 00:30 CET = %s, want 2024-02 (UTC)", m)
	}
	for _, tc := range []struct {
		m    Month
		n    int
		want Month
	}{{"2024-01", -1, "2023-12"}, {"2024-12", 1, "2025-01"}, {"2024-05", -11, "2023-06"}, {"2024-05", 0, "2024-05"}, {"2024-01", 120, "2034-01"}} {
		if got := tc.m.AddMonths(tc.n); got != tc.want {
			t.Errorf("%s.AddMonths(%d) = %s, want %s", tc.m, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		from, to Month
		want     int
	}{{"2024-01", "2024-01", 1}, {"2023-06", "2024-05", 12}, {"2024-02", "2024-01", 0}, {"2020-01", "2029-12", 120}} {
		if got := MonthsFromTo(tc.from, tc.to); got != tc.want {
			t.Errorf("MonthsFromTo(%s, %s) = %d, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestStatsRange(t *testing.T) {
	now := time.Date(2024, 5, 20, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		from, to         Month
		wantFrom, wantTo Month
		err              string
	}{
		{"", "", "2023-06", "2024-05", ""},
		{"", "2023-02", "2022-03", "2023-02", ""},
		{"2024-01", "", "2024-01", "2024-05", ""},
		{"2024-03", "2024-03", "2024-03", "2024-03", ""},
		{"2024-06", "", "", "", "Parameter from (2024-06) must not be after parameter to (2024-05)."},
		{"2010-01", "2020-01", "", "", "Parameters from and to span 121 months; at most 120 are allowed."},
		{"2010-02", "2020-01", "2010-02", "2020-01", ""},
	} {
		from, to, err := StatsRange(tc.from, tc.to, now)
		if tc.err != "" {
			if ErrorCode(err) != CodeInvalid || err.Error() != tc.err {
				t.Errorf("StatsRange(%q, %q) = %v; want %q", tc.from, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil || from != tc.wantFrom || to != tc.wantTo {
			t.Errorf("StatsRange(%q, %q) = %s, %s, %v; want %s, %s", tc.from, tc.to, from, to, err, tc.wantFrom, tc.wantTo)
		}
	}
}

func TestResolverEventKeys(t *testing.T) {
	at := time.Date(2024, 7, 31, 23, 59, 0, 0, time.UTC)
	req, _, sought := ResolverEventKeys(ResolverEvent{CustomerID: "c", Time: at, Source: " pubmed ", FullText: true, TitleID: 3, PackageID: 4,
		SoughtTitle: "ignored"})
	if want := (ResolverRequestKey{CustomerID: "c", Month: "2024-07", Source: "pubmed", TitleID: 3, PackageID: 4, FullText: true}); req != want || sought {
		t.Errorf("full text: %+v, %v; want %+v and no unmet demand", req, sought, want)
	}
	long := strings.Repeat("é", MaxSoughtTitle) // two bytes each
	req, unmet, sought := ResolverEventKeys(ResolverEvent{CustomerID: "c", Time: at, Source: strings.Repeat("s", 500),
		SoughtTitle: "  Journal\tof \n Nothing  ", SoughtID: "1234-5679"})
	if len(req.Source) != MaxStatsSource || req.FullText || req.TitleID != 0 {
		t.Errorf("request key %+v: want the source cut to %d bytes, no title", req, MaxStatsSource)
	}
	if want := (UnmetKey{CustomerID: "c", Month: "2024-07", Title: "Journal of Nothing", ID: "1234-5679"}); unmet != want || !sought {
		t.Errorf("unmet %+v, %v; want %+v", unmet, sought, want)
	}
	_, unmet, _ = ResolverEventKeys(ResolverEvent{Time: at, SoughtTitle: long})
	if len(unmet.Title) != MaxSoughtTitle || !strings.HasPrefix(long, unmet.Title) {
		t.Errorf("a long title is cut to %d bytes, want %d at a character's start", len(unmet.Title), MaxSoughtTitle)
	}
	if _, _, sought := ResolverEventKeys(ResolverEvent{Time: at, SoughtTitle: "  "}); sought {
		t.Error("a request that sought nothing is unmet demand")
	}
	// Only text both stores keep: no NUL or other control character, no
	// invalid UTF-8.
	req, unmet, _ = ResolverEventKeys(ResolverEvent{Time: at, Source: "a\x00b", SoughtTitle: "J\x01of\xffX", SoughtID: "\x00"})
	if req.Source != "a b" || unmet.Title != "J of X" || unmet.ID != "" {
		t.Errorf("control characters kept: source %q, title %q, id %q", req.Source, unmet.Title, unmet.ID)
	}
}

func TestParseStatsGroup(t *testing.T) {
	for s, want := range map[string]StatsGroup{"month": StatsByMonth, "PACKAGE": StatsByPackage, "Title": StatsByTitle, "source": StatsBySource, "vendor": "", "": ""} {
		if got, ok := ParseStatsGroup(s); got != want || ok != (want != "") {
			t.Errorf("ParseStatsGroup(%q) = %q, %v", s, got, ok)
		}
	}
}
