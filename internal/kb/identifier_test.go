package kb

import "testing"

func TestNormalizeISSN(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		ok     bool
		shaped bool
	}{
		{"0317-8471", "0317-8471", true, true},
		{"2434-561X", "2434-561X", true, true},
		{"2434-561x", "2434-561X", true, true},
		{"2434561x", "2434-561X", true, true},
		{"03178471", "0317-8471", true, true},
		{"0317 8471", "0317-8471", true, true},
		{" 0378-5955 ", "0378-5955", true, true},
		{"1873-4502", "1873-4502", true, true},  // chocula Portico
		{"1525-2027", "1525-2027", true, true},  // Wiley G-cubed
		{"0317-8472", "", false, true},          // bad check digit
		{"2434-5610", "", false, true},          // X expected
		{"0317--8471", "", false, false},        // two hyphens
		{"031-78471", "", false, false},         // hyphen misplaced
		{"0317-847", "", false, false},          // too short
		{"0317-84711", "", false, false},        // too long
		{"X317-8471", "", false, false},         // X only last
		{"ISSN_18734502_74", "", false, false},  // Portico title_id
		{"978-0-306-40615-7", "", false, false}, // an ISBN
		{"", "", false, false},
	}
	for _, tt := range tests {
		got, ok := NormalizeISSN(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormalizeISSN(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if s := ISSNShaped(tt.in); s != tt.shaped {
			t.Errorf("ISSNShaped(%q) = %v; want %v", tt.in, s, tt.shaped)
		}
	}
}

func TestNormalizeISBN(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		ok     bool
		shaped bool
	}{
		{"978-0-306-40615-7", "9780306406157", true, true},
		{"9780306406157", "9780306406157", true, true},
		{"978 0 306 40615 7", "9780306406157", true, true},
		{"0-306-40615-2", "9780306406157", true, true},
		{"0306406152", "9780306406157", true, true},
		{"9789382473008", "9789382473008", true, true}, // Askews
		{"0-8044-2957-X", "9780804429573", true, true},
		{"0-8044-2957-x", "9780804429573", true, true},
		{"979-10-90636-07-1", "9791090636071", true, true},
		{"978-0-306-40615-8", "", false, true}, // bad check digit
		{"0-306-40615-3", "", false, true},     // bad check digit
		{"977-1234-5670-03", "", false, false}, // ISSN EAN prefix, not an ISBN
		{"X-306-40615-2", "", false, false},    // X only last
		{"97803064061577", "", false, false},   // 14 digits
		{"030640615", "", false, false},        // 9 digits
		{"0317-8471", "", false, false},        // an ISSN
		{"10.1002/9781118", "", false, false},
		{"", "", false, false},
	}
	for _, tt := range tests {
		got, ok := NormalizeISBN(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NormalizeISBN(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if s := ISBNShaped(tt.in); s != tt.shaped {
			t.Errorf("ISBNShaped(%q) = %v; want %v", tt.in, s, tt.shaped)
		}
	}
}

func TestNormalizeISXNQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0317-8471", "03178471"},
		{"2434-561x", "2434561X"},
		{"0-306-40615-2", "9780306406157"},
		{"0 306 40615 2", "9780306406157"},
		{"978-0-306-40615-7", "9780306406157"},
		{"0-306-40615-3", "0306406153"}, // invalid ISBN-10 is not converted
		{"hearing research", "HEARINGRESEARCH"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeISXNQuery(tt.in); got != tt.want {
			t.Errorf("NormalizeISXNQuery(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkNormalizeISSN(b *testing.B) {
	for b.Loop() {
		NormalizeISSN("2434561x")
	}
}
