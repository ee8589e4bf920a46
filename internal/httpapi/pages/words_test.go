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
}
