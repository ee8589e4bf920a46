package pages

import (
	"fmt"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// coverageWords says a resource's coverage as a patron reads it: the
// customer's own coverage when it has set one, else the package's, each
// range as "from 2001 to 2005" with whole years where the dates are a
// year's first or last day ("January 2001" for a month's), and the
// embargo ("the most recent 6 months are not available"), the customer's
// when set, else the package's. Empty when there is nothing to say.
func coverageWords(r kb.Resource) string {
	ranges := r.CustomCoverage
	if len(ranges) == 0 {
		ranges = r.ManagedCoverage
	}
	var parts []string
	for _, c := range ranges {
		if s := rangeWords(c); s != "" {
			parts = append(parts, s)
		}
	}
	out := strings.Join(parts, "; ")
	if out != "" {
		out = strings.ToUpper(out[:1]) + out[1:]
	}
	emb := r.CustomEmbargo
	if emb.Unit == kb.EmbargoNone || emb.Value == 0 {
		emb = r.ManagedEmbargo
	}
	if e := embargoWords(emb); e != "" {
		if out != "" {
			out += ", except "
		} else {
			out = "Except "
		}
		out += e
	}
	if out != "" {
		out += "."
	}
	return out
}

// rangeWords says one coverage range.
func rangeWords(c kb.Coverage) string {
	begin, end := dateWords(c.Begin, false), dateWords(c.End, true)
	switch {
	case begin == "" && end == "":
		return ""
	case end == "":
		return "from " + begin + " to present"
	case begin == "":
		return "up to " + end
	case begin == end:
		return begin + " only"
	}
	return "from " + begin + " to " + end
}

// dateWords says a coverage date (YYYY-MM-DD): the year alone when it is
// the year's first day (a beginning) or last day (an end), the month and
// year for a month's first or last day, else the whole date. A date in
// another form is shown as it is.
func dateWords(s string, end bool) string {
	if s == "" {
		return ""
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	next := d.AddDate(0, 0, 1)
	switch {
	case !end && d.YearDay() == 1, end && next.Year() != d.Year():
		return fmt.Sprint(d.Year())
	case !end && d.Day() == 1, end && next.Month() != d.Month():
		return d.Format("January 2006")
	}
	return d.Format("2 January 2006")
}

// embargoWords says an embargo: "the most recent 6 months".
func embargoWords(e kb.Embargo) string {
	if e.Unit == kb.EmbargoNone || e.Value <= 0 {
		return ""
	}
	unit := strings.ToLower(e.Unit.String())
	if e.Value == 1 {
		unit = strings.TrimSuffix(unit, "s")
		return "the most recent " + unit
	}
	return fmt.Sprintf("the most recent %d %s", e.Value, unit)
}
