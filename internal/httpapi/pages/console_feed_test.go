package pages_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestConsolePackageFeed: the console's package page tells a customer,
// read-only, that an operator's feed keeps the package current, and when
// it last changed it; a package without a feed says nothing of it.
func TestConsolePackageFeed(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	feed, err := f.store.AddFeed(ctx, kb.Feed{Vendor: "care press", Package: "Nursing Journals", URL: "https://example.com/n.txt?token=x", Every: 7 * 24 * time.Hour, MaxRemoval: 20})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	if _, ok, err := f.store.ClaimFeed(ctx, feed.ID, now, "test", time.Minute); err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if _, err := f.store.RecordFeedRun(ctx, "test", kb.FeedRun{FeedID: feed.ID, Started: now, Finished: now, Outcome: kb.FeedApplied, Added: 3}, nil); err != nil {
		t.Fatal(err)
	}
	cookie, _ := f.signIn(t, "lib-key")
	page := func(name string) string {
		status, _, body := f.get(t, fmt.Sprintf("/console/packages/%d/%d", f.vendor, f.pkgs[name]), "Cookie", cookie)
		if status != http.StatusOK {
			t.Fatalf("package page of %s: %d", name, status)
		}
		return body
	}
	if body := page("Nursing Journals"); !strings.Contains(body, "This package is updated weekly from its publisher&#39;s file; last change 2026-11-27.") {
		t.Errorf("the package page does not say its feed:\n%s", body)
	}
	if body := page("Health Books"); strings.Contains(body, "is updated") {
		t.Errorf("a package without a feed says it is updated")
	}
}
