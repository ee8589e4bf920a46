package pages

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestWords(t *testing.T) {
	for rt, want := range map[kb.ResourceType]string{
		kb.ResourceJournal: "Journal", kb.ResourceBookSeries: "Book series", kb.ResourceAudioBook: "Audio book",
		kb.ResourceThesisDissertation: "Thesis or dissertation", kb.ResourceWebsite: "Web site", kb.ResourceStreamingVideo: "Streaming video",
	} {
		if got := typeWords(rt); got != want {
			t.Errorf("typeWords(%v) = %q, want %q", rt, got, want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -12345: "-12,345"} {
		if got := number(n); got != want {
			t.Errorf("number(%d) = %q, want %q", n, got, want)
		}
	}
}
