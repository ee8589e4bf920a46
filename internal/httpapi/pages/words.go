package pages

import (
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
