package pages

import (
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// typeWords names a resource type as a patron reads it: "Book series",
// "Thesis or dissertation".
func typeWords(t kb.ResourceType) string {
	switch t {
	case kb.ResourceThesisDissertation:
		return "Thesis or dissertation"
	case kb.ResourceWebsite:
		return "Web site"
	}
	d := t.Display()
	var b strings.Builder
	for i, r := range d {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// number writes n with a comma between thousands: 1,234,567.
func number(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
