package kbart

import "testing"

func TestParseEmbargo(t *testing.T) {
	tests := []struct {
		in   string
		want Embargo
		ok   bool
	}{
		{"P1Y", Embargo{Period: Period{1, 'Y'}}, true},
		{"R6M", Embargo{Recent: Period{6, 'M'}}, true},
		{"R10Y;P30D", Embargo{Recent: Period{10, 'Y'}, Period: Period{30, 'D'}}, true},
		{"P30D;R10Y", Embargo{Recent: Period{10, 'Y'}, Period: Period{30, 'D'}}, true},
		{"p2w", Embargo{Period: Period{2, 'W'}}, true},
		{" R 1 Y ; P 6 M ", Embargo{Recent: Period{1, 'Y'}, Period: Period{6, 'M'}}, true},
		{"P0D", Embargo{Period: Period{0, 'D'}}, true},
		{"P9999Y", Embargo{Period: Period{9999, 'Y'}}, true},
		{"", Embargo{}, true},
		{"   ", Embargo{}, true},
		{"P10000Y", Embargo{}, false},
		{"P1", Embargo{}, false},
		{"1Y", Embargo{}, false},
		{"PY", Embargo{}, false},
		{"P1X", Embargo{}, false},
		{"P1YY", Embargo{}, false},
		{"P1Y;P2Y", Embargo{}, false},
		{"R1Y;R2Y", Embargo{}, false},
		{"P1Y;", Embargo{}, false},
		{";P1Y", Embargo{}, false},
		{"P1Y;R1Y;P1Y", Embargo{}, false},
		{"P-1Y", Embargo{}, false},
		{"2018-05-01", Embargo{}, false},
		{"Moving Wall: 3 years", Embargo{}, false},
		{"Elsevier", Embargo{}, false},
		{"ISSN_18734502_74", Embargo{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseEmbargo(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseEmbargo(%q) = %+v, %v; want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEmbargoFormat(t *testing.T) {
	tests := []struct {
		in   Embargo
		want string
	}{
		{Embargo{}, ""},
		{Embargo{Period: Period{1, 'Y'}}, "P1Y"},
		{Embargo{Recent: Period{10, 'Y'}, Period: Period{30, 'D'}}, "R10Y;P30D"},
	}
	for _, tt := range tests {
		if got := tt.in.format(); got != tt.want {
			t.Errorf("%+v.format() = %q, want %q", tt.in, got, tt.want)
		}
	}
}
