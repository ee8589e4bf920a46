package web

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestPage(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    kb.Page
		message string // "": no error
	}{
		{"", kb.Page{Count: 30, Number: 1}, ""},
		{"count=&offset=", kb.Page{Count: 30, Number: 1}, ""},
		{"count=1&offset=2", kb.Page{Count: 1, Number: 2}, ""},
		{"count=100&offset=1000000", kb.Page{Count: 100, Number: 1_000_000}, ""},
		{"count=0", kb.Page{}, `Parameter count is outside the range 1-100 (got "0").`},
		{"count=101", kb.Page{}, `Parameter count is outside the range 1-100 (got "101").`},
		{"count=ten", kb.Page{}, `Parameter count is outside the range 1-100 (got "ten").`},
		{"offset=0", kb.Page{}, `Parameter offset must be a page number of 1 or more (got "0").`},
		{"offset=x", kb.Page{}, `Parameter offset must be a page number of 1 or more (got "x").`},
		{"offset=1000001", kb.Page{}, `Parameter offset is too large (got "1000001"); at most 1000000.`},
	} {
		p, err := Page(query(tc.raw), 30)
		if tc.message == "" {
			if err != nil || p != tc.want {
				t.Errorf("Page(%q) = %+v, %v; want %+v", tc.raw, p, err, tc.want)
			}
			continue
		}
		if kb.ErrorCode(err) != kb.CodeInvalid || kb.ErrorMessage(err) != tc.message {
			t.Errorf("Page(%q): error %v, want CodeInvalid %q", tc.raw, err, tc.message)
		}
	}
}

func TestOrderBy(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    kb.Order
		message string // "": no error
	}{
		{"", kb.OrderDefault, ""},
		{"orderby=relevance", kb.OrderRelevance, ""},
		{"orderby=0", kb.OrderRelevance, ""},
		{"orderby=TitleName", kb.OrderName, ""},
		{"orderby=1", kb.OrderName, ""},
		{"orderby=vendorname", 0, `Parameter orderby has an invalid value "vendorname": allowed values are relevance, titlename (or 0-1).`},
		{"orderby=2", 0, `Parameter orderby has an invalid value "2": allowed values are relevance, titlename (or 0-1).`},
	} {
		o, err := OrderBy(query(tc.raw), "titlename")
		if tc.message == "" {
			if err != nil || o != tc.want {
				t.Errorf("OrderBy(%q) = %v, %v; want %v", tc.raw, o, err, tc.want)
			}
			continue
		}
		if kb.ErrorCode(err) != kb.CodeInvalid || kb.ErrorMessage(err) != tc.message {
			t.Errorf("OrderBy(%q): error %v, want CodeInvalid %q", tc.raw, err, tc.message)
		}
	}
}
