package kb

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseOverlap reads an overlap query's parameters: packageids (a comma-
// separated list of package ids), against ("" or holdings) and list (""
// for counts only; unique:{packageId}, shared or partial for packages
// compared with one another; held, heldfully or notheld for a package
// against the holdings). A malformed or repeated id, too few or too many
// packages, an unknown against or list is CodeInvalid (CodeMissing for no
// packageids), naming the parameter and what it accepts.
func ParseOverlap(packageIDs, against, list string) (OverlapQuery, error) {
	var q OverlapQuery
	switch strings.ToLower(strings.TrimSpace(against)) {
	case "":
	case "holdings":
		q.AgainstHoldings = true
	default:
		return q, Errorf(CodeInvalid, "Parameter against has an invalid value %q: the allowed value is holdings.", Abbrev(against, 100))
	}
	ids := strings.TrimSpace(packageIDs)
	if ids == "" {
		return q, Errorf(CodeMissing, "Parameter packageids is missing: give %d to %d package ids separated by commas, such as packageids=12,34 (one with against=holdings).",
			MinOverlapPackages, MaxOverlapPackages)
	}
	for _, f := range strings.Split(ids, ",") {
		f = strings.TrimSpace(f)
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id < 1 || strings.TrimLeft(f, "0123456789") != "" {
			return q, Errorf(CodeInvalid, "Parameter packageids has an invalid id %q: give positive whole numbers separated by commas, such as packageids=12,34.", Abbrev(f, 100))
		}
		if slices.Contains(q.PackageIDs, id) {
			return q, Errorf(CodeInvalid, "Parameter packageids names package %d twice: give each package once.", id)
		}
		q.PackageIDs = append(q.PackageIDs, id)
	}
	switch n := len(q.PackageIDs); {
	case q.AgainstHoldings && n != 1:
		return q, Errorf(CodeInvalid, "Parameter packageids names %d packages: with against=holdings give one package.", n)
	case !q.AgainstHoldings && n < MinOverlapPackages:
		return q, Errorf(CodeInvalid, "Parameter packageids names 1 package: compare %d to %d packages, or one with against=holdings.", MinOverlapPackages, MaxOverlapPackages)
	case n > MaxOverlapPackages:
		return q, Errorf(CodeInvalid, "Parameter packageids names %d packages: compare at most %d.", n, MaxOverlapPackages)
	}
	var err error
	q.List, err = parseOverlapList(list, q)
	return q, err
}

// parseOverlapList reads the list parameter of q.
func parseOverlapList(list string, q OverlapQuery) (OverlapList, error) {
	l := strings.ToLower(strings.TrimSpace(list))
	if q.AgainstHoldings {
		switch l {
		case "":
			return OverlapList{}, nil
		case "held":
			return OverlapList{Kind: ListHeld}, nil
		case "heldfully":
			return OverlapList{Kind: ListHeldFully}, nil
		case "notheld":
			return OverlapList{Kind: ListNotHeld}, nil
		}
		return OverlapList{}, Errorf(CodeInvalid, "Parameter list has an invalid value %q: with against=holdings the allowed values are held, heldfully, notheld.", Abbrev(list, 100))
	}
	switch l {
	case "":
		return OverlapList{}, nil
	case "shared":
		return OverlapList{Kind: ListShared}, nil
	case "partial":
		return OverlapList{Kind: ListPartial}, nil
	}
	if rest, ok := strings.CutPrefix(l, "unique:"); ok {
		id, err := strconv.ParseInt(rest, 10, 64)
		if err == nil && slices.Contains(q.PackageIDs, id) {
			return OverlapList{Kind: ListUnique, PackageID: id}, nil
		}
		return OverlapList{}, Errorf(CodeInvalid, "Parameter list has an invalid value %q: unique: takes one of the packages of packageids, such as unique:%d.", Abbrev(list, 100), q.PackageIDs[0])
	}
	return OverlapList{}, Errorf(CodeInvalid, "Parameter list has an invalid value %q: allowed values are unique:{packageId}, shared, partial.", Abbrev(list, 100))
}

// HeldCoverage is a title's effective coverage in one package, for the
// comparisons of the collection analysis: the customer's custom coverage
// when it has set one, else the managed coverage (EffectiveCoverage), and
// the effective embargo (EffectiveEmbargo).
type HeldCoverage struct {
	Ranges  []Coverage // empty: every date
	Embargo Embargo
	// Custom says the ranges are the customer's custom coverage, and
	// CustomEmbargo the embargo the customer's (which SameCoverage and
	// CoveredBy do not look at).
	Custom, CustomEmbargo bool
}

// HeldCoverageOf is r's effective coverage.
func HeldCoverageOf(r Resource) HeldCoverage {
	return HeldCoverage{Ranges: EffectiveCoverage(r), Embargo: EffectiveEmbargo(r), Custom: len(r.CustomCoverage) > 0,
		CustomEmbargo: StoredEmbargo(r.CustomEmbargo) != Embargo{}}
}

// SameCoverage reports whether two packages give a title the same
// effective coverage: the same ranges, in any order, and the same embargo
// (its unit and value as stored: 12 months is not one year).
func SameCoverage(a, b HeldCoverage) bool {
	if StoredEmbargo(a.Embargo) != StoredEmbargo(b.Embargo) || len(a.Ranges) != len(b.Ranges) {
		return false
	}
	x, y := slices.Clone(a.Ranges), slices.Clone(b.Ranges)
	slices.SortFunc(x, compareCoverage)
	slices.SortFunc(y, compareCoverage)
	return slices.Equal(x, y)
}

// Key returns c's coverage as text, the same for two coverages exactly
// when SameCoverage says they are the same: the ranges in order, then the
// embargo as stored.
func (c HeldCoverage) Key() string {
	rs := slices.Clone(c.Ranges)
	slices.SortFunc(rs, compareCoverage)
	var b strings.Builder
	for _, r := range rs { // quoted: a date kept as stored may hold any character
		b.WriteString(strconv.Quote(r.Begin))
		b.WriteString(strconv.Quote(r.End))
	}
	e := StoredEmbargo(c.Embargo)
	b.WriteString(strconv.Itoa(int(e.Unit)))
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(e.Value))
	return b.String()
}

// compareCoverage orders ranges by begin, then end.
func compareCoverage(p, q Coverage) int {
	if c := strings.Compare(p.Begin, q.Begin); c != 0 {
		return c
	}
	return strings.Compare(p.End, q.End)
}

// CoveredBy reports whether the dates a title is available in by a (its
// ranges, less what its embargo holds back as of today) are all available
// by the others together: whether holding the title elsewhere already
// gives every date this package gives. A range without a begin starts at
// the earliest date, one without an end runs to today; no ranges is every
// date up to today. Dates are yyyy-mm-dd (as CoverageFromKBART expands
// them).
func CoveredBy(a HeldCoverage, others []HeldCoverage, today time.Time) bool {
	need := availableDays(a, today)
	var have []dayRange
	for _, o := range others {
		have = append(have, availableDays(o, today)...)
	}
	have = unionDays(have)
	for _, r := range need {
		i, _ := slices.BinarySearchFunc(have, r.from, func(h dayRange, d int) int {
			switch {
			case h.to < d:
				return -1
			case h.from > d:
				return 1
			}
			return 0
		})
		if i == len(have) || have[i].from > r.from || have[i].to < r.to {
			return false
		}
	}
	return true
}

// dayRange is a closed range of days, counted from the Unix epoch.
type dayRange struct{ from, to int }

// earliestDay stands for a range without a begin.
const earliestDay = -1 << 40

// dayOf counts the days of date (yyyy-mm-dd) from the Unix epoch; ok is
// false for a date that does not parse.
func dayOf(date string) (int, bool) {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return 0, false
	}
	return int(t.Unix() / 86400), true
}

// availableDays are the days c makes a title available on, as of today:
// its ranges cut at today and at the embargo's cutoff, as closed day
// ranges. A range whose dates do not parse counts as every date (as an
// unknown coverage does).
func availableDays(c HeldCoverage, today time.Time) []dayRange {
	last := int(today.UTC().Truncate(24*time.Hour).Unix() / 86400)
	if cut := EmbargoCutoff(c.Embargo, today.UTC()); cut != "" {
		if d, ok := dayOf(cut); ok && d < last {
			last = d
		}
	}
	if len(c.Ranges) == 0 {
		return []dayRange{{earliestDay, last}}
	}
	var out []dayRange
	for _, r := range c.Ranges {
		from, to := earliestDay, last
		if r.Begin != "" {
			d, ok := dayOf(r.Begin)
			if !ok {
				return []dayRange{{earliestDay, last}}
			}
			from = d
		}
		if r.End != "" {
			d, ok := dayOf(r.End)
			if !ok {
				return []dayRange{{earliestDay, last}}
			}
			to = min(d, last)
		}
		if from <= to {
			out = append(out, dayRange{from, to})
		}
	}
	return unionDays(out)
}

// unionDays sorts the ranges and joins those that overlap or touch.
func unionDays(rs []dayRange) []dayRange {
	slices.SortFunc(rs, func(a, b dayRange) int { return a.from - b.from })
	var out []dayRange
	for _, r := range rs {
		if n := len(out); n > 0 && r.from <= out[n-1].to+1 {
			out[n-1].to = max(out[n-1].to, r.to)
			continue
		}
		out = append(out, r)
	}
	return out
}

// KBART returns e in KBART's embargo_info notation, a moving wall of
// available issues (P6M: the most recent six months are not available);
// "" for none (StoredEmbargo).
func (e Embargo) KBART() string {
	e = StoredEmbargo(e)
	letter := map[EmbargoUnit]string{EmbargoDays: "D", EmbargoWeeks: "W", EmbargoMonths: "M", EmbargoYears: "Y"}[e.Unit]
	if letter == "" {
		return ""
	}
	return "P" + strconv.Itoa(e.Value) + letter
}
