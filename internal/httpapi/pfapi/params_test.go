package pfapi

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestPubResourceType(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    kb.ResourceType
		message string // "": no error
	}{
		{"Web site", kb.ResourceWebsite, ""},
		{"Book Series", kb.ResourceBookSeries, ""},
		{"thesis/dissertation", kb.ResourceThesisDissertation, ""},
		{"Audio-Book", kb.ResourceAudioBook, ""},
		{"bookseries", kb.ResourceBookSeries, ""},
		{"8", kb.ResourceBook, ""},
		{"podcast", 0, `Parameter resourcetype has an invalid value "podcast": allowed values are Journal, Newsletter, Report, Proceedings, Web site, Newspaper, Unspecified, Book, Book Series, Database, Thesis/Dissertation, Streaming Audio, Streaming Video, Audio Book.`},
	} {
		got, err := pubResourceType("resourcetype", tc.value)
		if tc.message == "" {
			if err != nil || got != tc.want {
				t.Errorf("pubResourceType(%q) = %v, %v; want %v", tc.value, got, err, tc.want)
			}
			continue
		}
		if kb.ErrorCode(err) != kb.CodeInvalid || kb.ErrorMessage(err) != tc.message {
			t.Errorf("pubResourceType(%q): error %v, want CodeInvalid %q", tc.value, err, tc.message)
		}
	}
}
