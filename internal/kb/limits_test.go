package kb

import (
	"strings"
	"testing"
)

func TestTextLimitExceeded(t *testing.T) {
	hangul := strings.Repeat("한", 700) // 2,100 bytes; 6,300 once folded
	for _, c := range []struct {
		name  string
		limit TextLimit
		s     string
		want  string
	}{
		{"within", LimitName, strings.Repeat("a", 1000), ""},
		{"too many characters", LimitName, strings.Repeat("a", 1001), "is 1,001 characters long: at most 1,000 are allowed"},
		{"characters count, not bytes", LimitLabel, strings.Repeat("é", 100), ""},
		{"too many bytes", LimitURL, strings.Repeat("é", 1001), "takes 2,002 bytes of UTF-8: at most 2,000 are allowed"},
		{"folded too long", LimitName, hangul, "takes 6,300 bytes once folded for sorting and matching: at most 2,000 are allowed"},
		{"folded within", LimitName, strings.Repeat("한", 200), ""},
		{"empty", LimitID, "", ""},
	} {
		if got := c.limit.Exceeded(c.s); got != c.want {
			t.Errorf("%s: Exceeded = %q, want %q", c.name, got, c.want)
		}
	}
	if err := CheckText("Package name", strings.Repeat("x", 1001), LimitName); ErrorCode(err) != CodeInvalid ||
		ErrorMessage(err) != "Package name is 1,001 characters long: at most 1,000 are allowed." {
		t.Errorf("CheckText = %v", err)
	}
}

func TestCheckSearch(t *testing.T) {
	for _, c := range []struct {
		s    string
		want string // "" for nil
	}{
		{"journal of testing", ""},
		{strings.Repeat("w ", 100), ""},
		{strings.Repeat("w ", 101), "Parameter search has 101 words: at most 100 are allowed."},
		{strings.Repeat("x", 1001), "Parameter search is 1,001 characters long: at most 1,000 are allowed."},
		{strings.Repeat("- ", 400), ""}, // punctuation is no word
	} {
		err := CheckSearch("Parameter search", c.s)
		if got := ErrorMessage(err); (err == nil) != (c.want == "") || (err != nil && got != c.want) {
			t.Errorf("CheckSearch(%.20q…) = %v, want %q", c.s, err, c.want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
