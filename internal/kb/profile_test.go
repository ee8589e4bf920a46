package kb

import (
	"strings"
	"testing"
)

func TestParseProfileID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ProfileID
		ok   bool
	}{
		{"demo.main.pf1", ProfileID{"demo", "main", "pf1"}, true},
		{"cust-1.group_2.Profile3", ProfileID{"cust-1", "group_2", "Profile3"}, true},
		{"demo.main", ProfileID{}, false},
		{"demo.main.pf.extra", ProfileID{}, false},
		{"demo..pf", ProfileID{}, false},
		{".main.pf", ProfileID{}, false},
		{"demo.main.", ProfileID{}, false},
		{"demo.ma in.pf", ProfileID{}, false},
		{"démo.main.pf", ProfileID{}, false},
		{"", ProfileID{}, false},
	} {
		got, err := ParseProfileID(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseProfileID(%q) = %+v, %v", tc.in, got, err)
		}
		if err != nil && ErrorCode(err) != CodeInvalid {
			t.Errorf("ParseProfileID(%q): code %d, want CodeInvalid", tc.in, ErrorCode(err))
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("String() = %q, want %q", got.String(), tc.in)
		}
	}
}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("s3cret pass")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "s3cret") || !strings.HasPrefix(h, "pbkdf2-sha256$") {
		t.Fatalf("hash %q", h)
	}
	h2, _ := HashPassword("s3cret pass")
	if h == h2 {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		hash, pw string
		want     bool
	}{
		{h, "s3cret pass", true},
		{h2, "s3cret pass", true},
		{h, "s3cret pas", false},
		{h, "", false},
		{"", "", false},
		{"pbkdf2-sha256$x$a$b", "x", false},
		{"md5$1$a$b", "x", false},
	} {
		if got := CheckPassword(tc.hash, tc.pw); got != tc.want {
			t.Errorf("CheckPassword(%q, %q) = %v", tc.hash, tc.pw, got)
		}
	}
}
