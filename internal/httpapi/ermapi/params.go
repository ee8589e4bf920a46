package ermapi

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// defaultCount is the page size of the service's lists when a request
// names none.
const defaultCount = 50

// listQuery reads the paging and sort parameters of a list of kind k.
func listQuery(q web.Query, k *kind) (kb.ERMQuery, error) {
	p, err := web.Page(q, defaultCount)
	if err != nil {
		return kb.ERMQuery{}, err
	}
	sorts, err := sortKeys(q, k)
	if err != nil {
		return kb.ERMQuery{}, err
	}
	return kb.ERMQuery{Kind: k.kind, Sort: sorts, Page: p}, nil
}

// sortKeys reads the repeated sort parameter, each value "field,asc" or
// "field,desc" (field and direction in any case); none gives k's default.
func sortKeys(q web.Query, k *kind) ([]kb.ERMSort, error) {
	values := q.All("sort")
	if len(values) == 0 {
		return k.defaultSort, nil
	}
	sorts := make([]kb.ERMSort, 0, len(values))
	for _, v := range values {
		name, dir, ok := strings.Cut(v, ",")
		field, known := k.sorts[strings.ToLower(strings.TrimSpace(name))]
		dir = strings.ToLower(strings.TrimSpace(dir))
		if !ok || !known || (dir != "asc" && dir != "desc") {
			return nil, kb.Errorf(kb.CodeInvalid, "Parameter sort has an invalid value %q: use field,asc or field,desc with field one of %s.", clip(v), strings.Join(k.sortNames, ", "))
		}
		for _, s := range sorts {
			if s.Field == field {
				return nil, kb.Errorf(kb.CodeInvalid, "Parameter sort names %s twice: give each field once.", strings.TrimSpace(name))
			}
		}
		sorts = append(sorts, kb.ERMSort{Field: field, Desc: dir == "desc"})
	}
	return sorts, nil
}

// searchFilter reads searchfield and searchvalue, and for licenses
// startdate and enddate: nil when none is given. A status is active or
// inactive; a date (mm/dd/yyyy or m/d/yyyy) keeps that day, in UTC;
// an assignment id keeps the object it assigns (exactly); text fields keep
// the objects whose field contains the value, in any case.
func searchFilter(q web.Query, k *kind) (*kb.ERMFilter, error) {
	name := q.Get("searchfield")
	value, err := web.Text(q, "searchvalue", kb.LimitSearch)
	if err != nil {
		return nil, err
	}
	start, end := q.Get("startdate"), q.Get("enddate")
	if (start != "" || end != "") && k.kind != kb.KindLicense {
		return nil, kb.Errorf(kb.CodeInvalid, "Parameters startdate and enddate are for licenses only.")
	}
	if len(k.search) == 0 && (name != "" || value != "") {
		return nil, kb.Errorf(kb.CodeInvalid, "Parameters searchfield and searchvalue are not taken by this list: use url to find a reference by its address.")
	}
	ranged := k.kind == kb.KindLicense && (start != "" || end != "")
	if name == "" {
		switch {
		case ranged:
			name = "date_last_updated"
		case value != "":
			return nil, kb.Errorf(kb.CodeMissing, "Parameter searchfield is required with searchvalue: one of %s.", strings.Join(k.searchNames, ", "))
		default:
			return nil, nil
		}
	}
	field, ok := k.search[strings.ToLower(name)]
	if !ok {
		return nil, kb.Errorf(kb.CodeInvalid, "Parameter searchfield has an invalid value %q: allowed values are %s.", clip(name), strings.Join(k.searchNames, ", "))
	}
	name = strings.ToLower(name)
	if ranged {
		if field != kb.FieldDateUpdated {
			return nil, kb.Errorf(kb.CodeInvalid, "Parameters startdate and enddate go with searchfield=date_last_updated (got searchfield=%s).", name)
		}
		if value != "" {
			return nil, kb.Errorf(kb.CodeInvalid, "Give either searchvalue or startdate and enddate with searchfield=date_last_updated, not both.")
		}
		return dateRange(start, end)
	}
	if value == "" {
		return nil, kb.Errorf(kb.CodeMissing, "Parameter searchvalue is required with searchfield=%s.", name)
	}
	switch field {
	case kb.FieldStatus:
		v := strings.ToLower(value)
		if v != kb.StatusActive && v != kb.StatusInactive {
			return nil, kb.Errorf(kb.CodeInvalid, "Parameter searchvalue must be active or inactive with searchfield=%s (got %q).", name, clip(value))
		}
		return &kb.ERMFilter{Field: field, Text: v}, nil
	case kb.FieldDateCreated, kb.FieldDateUpdated:
		day, err := parseDay("searchvalue", value)
		if err != nil {
			return nil, err
		}
		return &kb.ERMFilter{Field: field, From: day, To: day.AddDate(0, 0, 1)}, nil
	}
	return &kb.ERMFilter{Field: field, Text: value}, nil
}

// dateRange is the filter of a license list by date_last_updated from the
// day start through the day end, either of which may be "".
func dateRange(start, end string) (*kb.ERMFilter, error) {
	f := &kb.ERMFilter{Field: kb.FieldDateUpdated} // a zero time does not bound
	if start != "" {
		day, err := parseDay("startdate", start)
		if err != nil {
			return nil, err
		}
		f.From = day
	}
	if end != "" {
		day, err := parseDay("enddate", end)
		if err != nil {
			return nil, err
		}
		f.To = day.AddDate(0, 0, 1)
	}
	if start != "" && end != "" && !f.From.Before(f.To) {
		return nil, kb.Errorf(kb.CodeInvalid, "Parameter enddate (%s) is before startdate (%s).", end, start)
	}
	return f, nil
}

// usDate matches mm/dd/yyyy and m/d/yyyy.
var usDate = regexp.MustCompile(`^\d{1,2}/\d{1,2}/\d{4}$`)

// parseDay reads the parameter name as a day, mm/dd/yyyy or m/d/yyyy, and
// returns its start in UTC.
func parseDay(name, v string) (time.Time, error) {
	if usDate.MatchString(v) {
		if t, err := time.Parse("1/2/2006", v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, kb.Errorf(kb.CodeInvalid, "Parameter %s must be a date mm/dd/yyyy or m/d/yyyy (got %q).", name, clip(v))
}

// clip shortens a client's value quoted in a message, so that a huge one
// does not make a huge header.
func clip(s string) string {
	const max = 100
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}
