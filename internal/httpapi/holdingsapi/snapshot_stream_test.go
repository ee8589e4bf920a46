package holdingsapi

import (
	"encoding/json"
	"testing"
)

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "tab\tnewline\nreturn\r", "\x00\x01\x1f\x7f",
		"http://a.example/?a=1&b=<2>", "Zürich – “quotes” 日本", "line\u2028sep\u2029para",
		"bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate",
	} {
		got := appendJSONString(nil, s)
		var back, want string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q: %s is not a JSON string: %v", s, got, err)
			continue
		}
		b, _ := json.Marshal(s)
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if back != want {
			t.Errorf("%q: reads back as %q, encoding/json's as %q", s, back, want)
		}
	}
}

func TestAcceptsKBART(t *testing.T) {
	for accept, want := range map[string]bool{
		"":                          false,
		"application/json":          false,
		"text/tab-separated-values": true,
		"TEXT/Tab-Separated-Values": true,
		"application/json, text/tab-separated-values;q=0.9": true,
		"text/tab-separated-values;q=0":                     false,
		"text/*":                                            false,
		"*/*":                                               false,
	} {
		if got := acceptsKBART([]string{accept}); got != want {
			t.Errorf("acceptsKBART(%q) = %v, want %v", accept, got, want)
		}
	}
}

func TestHoldingsFileName(t *testing.T) {
	for _, tt := range []struct{ cust, created, want string }{
		{"demo", "2026-11-22 10:15:00", "kbserver_Global_demo-holdings_2026-11-22.txt"},
		{"my_lib", "2026-01-02 00:00:00", "kbserver_Global_my-lib-holdings_2026-01-02.txt"},
		{"Bibliothèque 2", "2026-01-02 00:00:00", "kbserver_Global_Biblioth-que-2-holdings_2026-01-02.txt"},
	} {
		if got := HoldingsFileName(tt.cust, tt.created); got != tt.want {
			t.Errorf("HoldingsFileName(%q, %q) = %q, want %q", tt.cust, tt.created, got, tt.want)
		}
	}
	if got := HoldingsFileName("x", ""); len(got) != len("kbserver_Global_x-holdings_2026-01-02.txt") {
		t.Errorf("without a date: %q", got)
	}
}
