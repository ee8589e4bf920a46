package kb

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseOverlap(t *testing.T) {
	for _, c := range []struct {
		ids, against, list string
		want               OverlapQuery
		code               Code   // 0: no error
		words              string // in the message
	}{
		{"12,34", "", "", OverlapQuery{PackageIDs: []int64{12, 34}}, 0, ""},
		{" 12 , 34 ,56", "", "shared", OverlapQuery{PackageIDs: []int64{12, 34, 56}, List: OverlapList{Kind: ListShared}}, 0, ""},
		{"12,34", "", "Partial", OverlapQuery{PackageIDs: []int64{12, 34}, List: OverlapList{Kind: ListPartial}}, 0, ""},
		{"12,34", "", "unique:34", OverlapQuery{PackageIDs: []int64{12, 34}, List: OverlapList{Kind: ListUnique, PackageID: 34}}, 0, ""},
		{"12", "holdings", "", OverlapQuery{PackageIDs: []int64{12}, AgainstHoldings: true}, 0, ""},
		{"12", "Holdings", "notheld", OverlapQuery{PackageIDs: []int64{12}, AgainstHoldings: true, List: OverlapList{Kind: ListNotHeld}}, 0, ""},
		{"12", "holdings", "heldfully", OverlapQuery{PackageIDs: []int64{12}, AgainstHoldings: true, List: OverlapList{Kind: ListHeldFully}}, 0, ""},
		{"", "", "", OverlapQuery{}, CodeMissing, "packageids is missing"},
		{"12", "", "", OverlapQuery{}, CodeInvalid, "names 1 package"},
		{"12,34", "holdings", "", OverlapQuery{}, CodeInvalid, "give one package"},
		{"1,2,3,4,5,6,7,8,9,10,11", "", "", OverlapQuery{}, CodeInvalid, "at most 10"},
		{"12,x", "", "", OverlapQuery{}, CodeInvalid, `invalid id "x"`},
		{"12,-3", "", "", OverlapQuery{}, CodeInvalid, `invalid id "-3"`},
		{"12,,34", "", "", OverlapQuery{}, CodeInvalid, `invalid id ""`},
		{"12,0", "", "", OverlapQuery{}, CodeInvalid, `invalid id "0"`},
		{"12,12", "", "", OverlapQuery{}, CodeInvalid, "twice"},
		{"12,34", "titles", "", OverlapQuery{}, CodeInvalid, "against"},
		{"12,34", "", "all", OverlapQuery{}, CodeInvalid, "unique:{packageId}, shared, partial"},
		{"12,34", "", "unique:56", OverlapQuery{}, CodeInvalid, "one of the packages"},
		{"12,34", "", "held", OverlapQuery{}, CodeInvalid, "unique:{packageId}"},
		{"12", "holdings", "shared", OverlapQuery{}, CodeInvalid, "held, heldfully, notheld"},
	} {
		got, err := ParseOverlap(c.ids, c.against, c.list)
		if c.code == 0 {
			if err != nil || !slices.Equal(got.PackageIDs, c.want.PackageIDs) || got.AgainstHoldings != c.want.AgainstHoldings || got.List != c.want.List {
				t.Errorf("ParseOverlap(%q, %q, %q) = %+v, %v; want %+v", c.ids, c.against, c.list, got, err, c.want)
			}
			continue
		}
		if ErrorCode(err) != c.code || !strings.Contains(ErrorMessage(err), c.words) {
			t.Errorf("ParseOverlap(%q, %q, %q): %v; want code %d naming %q", c.ids, c.against, c.list, err, c.code, c.words)
		}
	}
}

func TestSameCoverage(t *testing.T) {
	a := HeldCoverage{Ranges: []Coverage{{"2000-01-01", "2004-12-31"}, {"2010-01-01", ""}}}
	for _, c := range []struct {
		name string
		b    HeldCoverage
		want bool
	}{
		{"equal", a, true},
		{"in another order", HeldCoverage{Ranges: []Coverage{{"2010-01-01", ""}, {"2000-01-01", "2004-12-31"}}}, true},
		{"another end", HeldCoverage{Ranges: []Coverage{{"2000-01-01", "2005-12-31"}, {"2010-01-01", ""}}}, false},
		{"a range less", HeldCoverage{Ranges: []Coverage{{"2000-01-01", "2004-12-31"}}}, false},
		{"an embargo", HeldCoverage{Ranges: a.Ranges, Embargo: Embargo{Unit: EmbargoMonths, Value: 6}}, false},
		{"a zero embargo is none", HeldCoverage{Ranges: a.Ranges, Embargo: Embargo{Unit: EmbargoMonths, Value: 0}}, true},
	} {
		if got := SameCoverage(a, c.b); got != c.want {
			t.Errorf("%s: SameCoverage = %v, want %v", c.name, got, c.want)
		}
	}
	if !SameCoverage(HeldCoverage{Embargo: Embargo{Unit: EmbargoYears, Value: 1}}, HeldCoverage{Embargo: Embargo{Unit: EmbargoYears, Value: 1}}) {
		t.Error("two equal embargoes without ranges differ")
	}
	if SameCoverage(HeldCoverage{Embargo: Embargo{Unit: EmbargoYears, Value: 1}}, HeldCoverage{Embargo: Embargo{Unit: EmbargoMonths, Value: 12}}) {
		t.Error("12 months and one year are the same as stored")
	}
}

func TestCoveredBy(t *testing.T) {
	today := time.Date(2024, 6, 15, 10, 0, 0, 0, time.UTC)
	cov := func(rs ...Coverage) HeldCoverage { return HeldCoverage{Ranges: rs} }
	for _, c := range []struct {
		name   string
		a      HeldCoverage
		others []HeldCoverage
		want   bool
	}{
		{"inside one", cov(Coverage{"2001-01-01", "2003-12-31"}), []HeldCoverage{cov(Coverage{"2000-01-01", "2005-12-31"})}, true},
		{"two that touch", cov(Coverage{"2001-01-01", "2003-12-31"}),
			[]HeldCoverage{cov(Coverage{"2000-01-01", "2001-12-31"}), cov(Coverage{"2002-01-01", ""})}, true},
		{"a gap of a day", cov(Coverage{"2001-01-01", "2003-12-31"}),
			[]HeldCoverage{cov(Coverage{"2000-01-01", "2001-12-30"}), cov(Coverage{"2002-01-01", ""})}, false},
		{"open end against open end", cov(Coverage{"2010-01-01", ""}), []HeldCoverage{cov(Coverage{"2005-01-01", ""})}, true},
		{"open end against an end", cov(Coverage{"2010-01-01", ""}), []HeldCoverage{cov(Coverage{"2005-01-01", "2020-12-31"})}, false},
		{"an embargo elsewhere", cov(Coverage{"2010-01-01", ""}),
			[]HeldCoverage{{Ranges: []Coverage{{"2005-01-01", ""}}, Embargo: Embargo{Unit: EmbargoYears, Value: 1}}}, false},
		{"an embargo here too", HeldCoverage{Ranges: []Coverage{{"2010-01-01", ""}}, Embargo: Embargo{Unit: EmbargoYears, Value: 1}},
			[]HeldCoverage{{Ranges: []Coverage{{"2005-01-01", ""}}, Embargo: Embargo{Unit: EmbargoMonths, Value: 12}}}, true},
		{"every date needs every date", cov(), []HeldCoverage{cov(Coverage{"1900-01-01", ""})}, false},
		{"every date covers", cov(Coverage{"1990-01-01", "1999-12-31"}), []HeldCoverage{cov()}, true},
		{"nothing else", cov(Coverage{"1990-01-01", "1999-12-31"}), nil, false},
		{"a future range needs nothing", cov(Coverage{"2030-01-01", ""}), nil, true},
	} {
		if got := CoveredBy(c.a, c.others, today); got != c.want {
			t.Errorf("%s: CoveredBy = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCoveredByReference compares CoveredBy with a day-by-day reference
// over random coverage in a window of dates.
func TestCoveredByReference(t *testing.T) {
	today := time.Date(2020, 3, 15, 0, 0, 0, 0, time.UTC)
	start := time.Date(2019, 6, 1, 0, 0, 0, 0, time.UTC)
	days := int(today.Sub(start).Hours()/24) + 40
	r := rand.New(rand.NewPCG(38, 1))
	date := func() string { return start.AddDate(0, 0, r.IntN(days)).Format(time.DateOnly) }
	random := func() HeldCoverage {
		var c HeldCoverage
		for range r.IntN(3) {
			rg := Coverage{Begin: date(), End: date()}
			if rg.Begin > rg.End {
				rg.Begin, rg.End = rg.End, rg.Begin
			}
			if r.IntN(5) == 0 {
				rg.Begin = ""
			}
			if r.IntN(4) == 0 {
				rg.End = ""
			}
			c.Ranges = append(c.Ranges, rg)
		}
		if r.IntN(4) == 0 {
			c.Embargo = Embargo{Unit: EmbargoDays, Value: r.IntN(60) + 1}
		}
		return c
	}
	// available reports whether c makes the title available on day d
	// (before start: as on start, the window's first day).
	available := func(c HeldCoverage, d time.Time) bool {
		if d.After(today) {
			return false
		}
		if cut := EmbargoCutoff(c.Embargo, today); cut != "" && d.Format(time.DateOnly) > cut {
			return false
		}
		if len(c.Ranges) == 0 {
			return true
		}
		s := d.Format(time.DateOnly)
		for _, rg := range c.Ranges {
			if (rg.Begin == "" || rg.Begin <= s) && (rg.End == "" || s <= rg.End) {
				return true
			}
		}
		return false
	}
	for range 3000 {
		a := random()
		var others []HeldCoverage
		for range r.IntN(3) {
			others = append(others, random())
		}
		want := true
		for i := -1; i <= days; i++ { // day -1 stands for every date before the window
			d := start.AddDate(0, 0, i)
			if available(a, d) {
				held := false
				for _, o := range others {
					held = held || available(o, d)
				}
				if !held {
					want = false
					break
				}
			}
		}
		if got := CoveredBy(a, others, today); got != want {
			t.Fatalf("CoveredBy(%+v, %+v) = %v, the days say %v", a, others, got, want)
		}
	}
}

// TestKeyLikeSameCoverage checks that two coverages have one key exactly
// when SameCoverage says they are the same, over random coverages drawn
// from few values (so that many are the same).
func TestKeyLikeSameCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 2))
	// Dates as stored may be anything: some hold the key's own marks.
	dates := []string{"", "2000-01-01", "2000-12-31", "2010-06-30", `a"b`, "a", `"b`, "0/0", ";", "~"}
	random := func() HeldCoverage {
		var c HeldCoverage
		for range r.IntN(3) {
			c.Ranges = append(c.Ranges, Coverage{Begin: dates[r.IntN(len(dates))], End: dates[r.IntN(len(dates))]})
		}
		switch r.IntN(4) {
		case 0:
			c.Embargo = Embargo{Unit: EmbargoMonths, Value: r.IntN(2) * 12}
		case 1:
			c.Embargo = Embargo{Unit: EmbargoYears, Value: 1}
		}
		c.Custom = r.IntN(2) == 0
		return c
	}
	same := 0
	for range 20000 {
		a, b := random(), random()
		want := SameCoverage(a, b)
		if got := a.Key() == b.Key(); got != want {
			t.Fatalf("%+v and %+v: keys %q and %q equal %v, SameCoverage %v", a, b, a.Key(), b.Key(), got, want)
		}
		if want {
			same++
		}
	}
	if same < 100 {
		t.Fatalf("only %d of the pairs were the same: the test draws too few alike", same)
	}
}

func TestEmbargoKBART(t *testing.T) {
	for _, c := range []struct {
		e    Embargo
		want string
	}{
		{Embargo{Unit: EmbargoMonths, Value: 6}, "P6M"},
		{Embargo{Unit: EmbargoDays, Value: 30}, "P30D"},
		{Embargo{Unit: EmbargoWeeks, Value: 2}, "P2W"},
		{Embargo{Unit: EmbargoYears, Value: 1}, "P1Y"},
		{Embargo{Unit: EmbargoYears, Value: 0}, ""},
		{Embargo{}, ""},
	} {
		if got := c.e.KBART(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
