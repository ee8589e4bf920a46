package storetest

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// testFeeds: package feeds (issue 37) are stored, listed and removed with
// their history; a due feed is claimed by one holder until its run is
// recorded or its lease expires, also when several claim it at once (as
// servers over one database do); a run records its outcome, moves the
// feed's next run and keeps a held run's file.
func testFeeds(t *testing.T, s Store) {
	fs, ok := s.Store.(kb.FeedStore)
	if !ok {
		t.Fatalf("%T does not keep feeds (kb.FeedStore)", s.Store)
	}
	if _, err := s.Store.AddCustomer(t.Context(), "feeds1", "Feeds' Customer"); err != nil {
		t.Fatal(err)
	}
	t.Run("AddListRemove", func(t *testing.T) { testFeedsAdd(t, fs) })
	t.Run("Claim", func(t *testing.T) { testFeedsClaim(t, fs) })
	t.Run("Runs", func(t *testing.T) { testFeedRuns(t, fs) })
	t.Run("ClaimRace", func(t *testing.T) { testFeedsClaimRace(t, fs) })
	t.Run("Package", func(t *testing.T) { testFeedPackage(t, s.Store, fs) })
}

// testFeedPackage: a feed's package is found by folded name, with its
// content type, type and title count; one that does not exist is not
// found, and neither is a customer's own package.
func testFeedPackage(t *testing.T, st kb.Store, fs kb.FeedStore) {
	ctx := t.Context()
	if _, ok, err := fs.FeedPackage(ctx, "Feed Press", "Feed Journals"); ok || err != nil {
		t.Fatalf("a package not imported yet: ok %v, %v", ok, err)
	}
	rows := []kb.ImportRow{{Line: 2}, {Line: 3}}
	for i, name := range []string{"Feed Journal One", "Feed Journal Two"} {
		rows[i].KBART[kbart.PublicationTitle], rows[i].KBART[kbart.PublicationType] = name, "serial"
		rows[i].KBART[kbart.TitleID] = fmt.Sprintf("f-%d", i+1)
	}
	before := time.Now().Add(-time.Minute) // the database's clock, not the test's
	res := must[kb.ImportResult](t)(st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Feed Press", PackageName: "Feed Journals",
		ContentType: kb.ContentEJournal, PackageType: kb.PackageVariable}, RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i] })))
	p, ok, err := fs.FeedPackage(ctx, " feed press", "FEED JOURNALS ")
	want := kb.FeedPackage{VendorID: res.VendorID, PackageID: res.PackageID, ContentType: kb.ContentEJournal,
		PackageType: kb.PackageVariable, Titles: 2, Imported: p.Imported}
	if err != nil || !ok || p != want {
		t.Errorf("FeedPackage: %+v, %v, %v; want %+v", p, ok, err, want)
	}
	if p.Imported.Before(before) || p.Imported.After(time.Now().Add(time.Minute)) {
		t.Errorf("FeedPackage: imported %s, want the import's time", p.Imported)
	}
	// An unchanged re-import does not move it.
	must[kb.ImportResult](t)(st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Feed Press", PackageName: "Feed Journals",
		ContentType: kb.ContentEJournal, PackageType: kb.PackageVariable}, RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i] })))
	if again, _, _ := fs.FeedPackage(ctx, "Feed Press", "Feed Journals"); !again.Imported.Equal(p.Imported) {
		t.Errorf("after an unchanged re-import: imported %s, was %s", again.Imported, p.Imported)
	}
	if _, ok, err := fs.FeedPackage(ctx, "Feed Press", "Other"); ok || err != nil {
		t.Errorf("another package of the vendor: ok %v, %v", ok, err)
	}
}

// removeFeeds removes every feed, so that a part starts with none.
func removeFeeds(t *testing.T, fs kb.FeedStore) {
	t.Helper()
	for _, f := range must[[]kb.Feed](t)(fs.Feeds(t.Context())) {
		if err := fs.RemoveFeed(t.Context(), f.ID); err != nil {
			t.Fatal(err)
		}
	}
}

func testFeedsAdd(t *testing.T, fs kb.FeedStore) {
	ctx := t.Context()
	removeFeeds(t, fs)
	if l := must[[]kb.Feed](t)(fs.Feeds(ctx)); l == nil || len(l) != 0 {
		t.Fatalf("feeds of an empty store: %#v, want an empty list", l)
	}
	for _, c := range []struct {
		f    kb.Feed
		code kb.Code
	}{
		{kb.Feed{Package: "P", URL: "https://x.example/f"}, kb.CodeMissing},
		{kb.Feed{Vendor: "V", URL: "https://x.example/f"}, kb.CodeMissing},
		{kb.Feed{Vendor: "V", Package: "P"}, kb.CodeMissing},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", Holdings: true}, kb.CodeMissing},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", CustomerID: "feeds1"}, kb.CodeInvalid},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", CustomerID: "nobody", Holdings: true}, kb.CodeNotFound},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", ByCustomer: true}, kb.CodeInvalid},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", MaxRemoval: 101}, kb.CodeInvalid},
		{kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/f", Every: time.Second}, kb.CodeInvalid},
	} {
		if _, err := fs.AddFeed(ctx, c.f); kb.ErrorCode(err) != c.code {
			t.Errorf("AddFeed(%+v): %v, want code %d", c.f, err, c.code)
		}
	}
	before := time.Now().Add(-time.Second)
	a := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "Wiley", Package: "Journals", URL: "https://pub.example/w.txt?token=t1",
		Headers: []kb.FeedHeader{{Name: "Authorization", Value: "Bearer t2"}, {Name: "X-Id", Value: "7"}}, MaxRemoval: 20}))
	b := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "Wiley", Package: "Journals", URL: "file:///srv/kbart/inst.txt",
		Every: 7 * 24 * time.Hour, MaxRemoval: 2.5, CustomerID: "feeds1", Holdings: true, ByCustomer: true}))
	if a.ID == 0 || b.ID <= a.ID || a.Every != kb.DefaultFeedEvery || a.Created.Before(before) || a.NextRun.After(time.Now()) {
		t.Errorf("added %+v and %+v: want ids in order, the default schedule, created and due now", a, b)
	}
	list := must[[]kb.Feed](t)(fs.Feeds(ctx))
	if diff := cmp.Diff([]kb.Feed{a, b}, list); diff != "" {
		t.Errorf("feeds (-added +listed):\n%s", diff)
	}
	got, runs, err := fs.FeedHistory(ctx, b.ID)
	if err != nil || len(runs) != 0 || runs == nil {
		t.Fatalf("feed %d: runs %#v, %v; want none", b.ID, runs, err)
	}
	if diff := cmp.Diff(b, got); diff != "" {
		t.Errorf("feed (-added +read):\n%s", diff)
	}
	if err := fs.RemoveFeed(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := fs.FeedHistory(ctx, a.ID); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("a removed feed: %v, want not found", err)
	}
	if err := fs.RemoveFeed(ctx, a.ID); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("removing it again: %v, want not found", err)
	}
	if l := must[[]kb.Feed](t)(fs.Feeds(ctx)); len(l) != 1 || l[0].ID != b.ID {
		t.Errorf("feeds after removing %d: %+v", a.ID, l)
	}
}

func testFeedsClaim(t *testing.T, fs kb.FeedStore) {
	ctx := t.Context()
	removeFeeds(t, fs)
	a := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: "A", URL: "https://x.example/a", MaxRemoval: 20}))
	b := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: "B", URL: "https://x.example/b", MaxRemoval: 20}))
	now := time.Now().Add(time.Second)
	const lease = time.Minute
	claim := func(at time.Time, holder string) (int64, bool) {
		t.Helper()
		f, ok, err := fs.ClaimDueFeed(ctx, at, holder, lease, false)
		if err != nil {
			t.Fatal(err)
		}
		return f.ID, ok
	}
	if _, ok := claim(a.Created.Add(-time.Hour), "s1"); ok {
		t.Errorf("a feed was claimed before it was due")
	}
	if id, ok := claim(now, "s1"); !ok || id != a.ID {
		t.Errorf("first claim: %d %v, want feed %d", id, ok, a.ID)
	}
	if id, ok := claim(now, "s2"); !ok || id != b.ID {
		t.Errorf("second claim: %d %v, want feed %d, the one still free", id, ok, b.ID)
	}
	if id, ok := claim(now.Add(lease-time.Millisecond), "s3"); ok {
		t.Errorf("claim while both leases run: got feed %d", id)
	}
	if id, ok := claim(now.Add(lease+time.Millisecond), "s3"); !ok || id != a.ID {
		t.Errorf("claim after the leases expired: %d %v, want feed %d taken over", id, ok, a.ID)
	}
	// s1's lease was taken over: its run is recorded, but s3 keeps the
	// lease it holds.
	must[kb.FeedRun](t)(fs.RecordFeedRun(ctx, "s1", kb.FeedRun{FeedID: a.ID, Started: now, Finished: now, Outcome: kb.FeedFailed, Message: "late"}, nil))
	if id, ok := claim(now.Add(lease+2*time.Millisecond), "s4"); !ok || id != b.ID {
		t.Errorf("claim beside s3's lease: %d %v, want feed %d", id, ok, b.ID)
	}
	if _, _, err := fs.ClaimDueFeed(ctx, now, "", lease, false); err == nil {
		t.Errorf("a claim without a holder was accepted")
	}
	// A feed asked for by its id: claimed, due or not, unless a lease
	// covers it; its holder renews the lease, no one else can.
	later := now.Add(lease + 2*time.Millisecond)
	if f, ok, err := fs.ClaimFeed(ctx, b.ID, later, "cli", lease); err != nil || ok {
		t.Errorf("ClaimFeed under s4's lease: %+v %v %v, want refused", f, ok, err)
	}
	c := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: "C", URL: "https://x.example/c", MaxRemoval: 20}))
	must[kb.FeedRun](t)(fs.RecordFeedRun(ctx, "", kb.FeedRun{FeedID: c.ID, Started: later, Finished: later, Outcome: kb.FeedUnchanged}, nil))
	if f, ok, err := fs.ClaimFeed(ctx, c.ID, later, "cli", lease); err != nil || !ok || f.ID != c.ID {
		t.Errorf("ClaimFeed of a feed not due: %+v %v %v, want it claimed", f, ok, err)
	}
	if ok, err := fs.RenewFeedLease(ctx, c.ID, later.Add(lease/2), "cli", lease); err != nil || !ok {
		t.Errorf("renewal by the holder: %v %v", ok, err)
	}
	if ok, err := fs.RenewFeedLease(ctx, c.ID, later, "s1", lease); err != nil || ok {
		t.Errorf("renewal by another: %v %v, want refused", ok, err)
	}
	if _, ok, _ := fs.ClaimFeed(ctx, c.ID, later.Add(lease+time.Millisecond), "s5", lease); ok {
		t.Errorf("the renewed lease did not cover its extension")
	}
	if _, _, err := fs.ClaimFeed(ctx, c.ID+1000, later, "cli", lease); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("ClaimFeed of no feed: %v, want not found", err)
	}
	// A library's own feed is claimed by the libraries' runner only.
	lib := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: "L", URL: "https://x.example/l", MaxRemoval: 20,
		CustomerID: "feeds1", Holdings: true, ByCustomer: true}))
	muchLater := now.Add(10 * lease)
	for range 2 {
		if f, ok, err := fs.ClaimDueFeed(ctx, muchLater, "ops", lease, false); err != nil || ok && f.ID == lib.ID {
			t.Errorf("the operator's runner claimed %d (%v, %v)", f.ID, ok, err)
		}
	}
	if f, ok, err := fs.ClaimDueFeed(ctx, muchLater, "libs", lease, true); err != nil || !ok || f.ID != lib.ID {
		t.Errorf("the libraries' runner: %d %v %v, want feed %d", f.ID, ok, err, lib.ID)
	}
	if f, ok, err := fs.ClaimDueFeed(ctx, muchLater, "libs2", lease, true); err != nil || ok {
		t.Errorf("the libraries' runner again: %d %v %v, want none free", f.ID, ok, err)
	}
}

func testFeedRuns(t *testing.T, fs kb.FeedStore) {
	ctx := t.Context()
	removeFeeds(t, fs)
	f := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: "P", URL: "https://x.example/p", Every: time.Hour, MaxRemoval: 20}))
	start := time.Now().Add(time.Second).UTC().Truncate(time.Millisecond)
	claimed, ok, err := fs.ClaimDueFeed(ctx, start, "s1", time.Minute, false)
	if err != nil || !ok || claimed.ID != f.ID {
		t.Fatalf("claim: %+v %v %v", claimed, ok, err)
	}
	applied := kb.FeedRun{FeedID: f.ID, Started: start, Finished: start.Add(3 * time.Second), Outcome: kb.FeedApplied,
		Message: "applied", Status: 200, Bytes: 1234, Added: 5, Removed: 1, Changed: 2, ETag: `"v1"`, LastModified: "Fri, 03 May 2024 10:00:00 GMT"}
	applied = must[kb.FeedRun](t)(fs.RecordFeedRun(ctx, "s1", applied, strings.NewReader("not kept: the run was applied")))
	if applied.ID == 0 || applied.Held {
		t.Errorf("applied run: %+v", applied)
	}
	got, _ := must2(t)(fs.FeedHistory(ctx, f.ID))
	if got.ETag != `"v1"` || got.LastModified != applied.LastModified || !got.NextRun.Equal(start.Add(time.Hour)) {
		t.Errorf("after an applied run: etag %q, last modified %q, next run %v; want those of the run and %v",
			got.ETag, got.LastModified, got.NextRun, start.Add(time.Hour))
	}
	if _, ok, _ := fs.ClaimDueFeed(ctx, start.Add(time.Hour-time.Millisecond), "s2", time.Minute, false); ok {
		t.Errorf("the feed was claimed before its next run")
	}

	file := bytes.Repeat([]byte("publication_title\tprint_identifier\nA journal\t1234-5678\n"), 1000)
	held := kb.FeedRun{FeedID: f.ID, Started: start.Add(time.Hour), Finished: start.Add(time.Hour + time.Second), Outcome: kb.FeedHeld,
		Message: "it would remove 3 of the package's 10 titles (30%), more than 20%", Status: 200, Bytes: int64(len(file)), Removed: 3, ETag: `"v2"`}
	held = must[kb.FeedRun](t)(fs.RecordFeedRun(ctx, "s2", held, bytes.NewReader(file)))
	failed := must[kb.FeedRun](t)(fs.RecordFeedRun(ctx, "", kb.FeedRun{FeedID: f.ID, Started: start.Add(2 * time.Hour),
		Finished: start.Add(2 * time.Hour), Outcome: kb.FeedFailed, Message: "fetch https://x.example/p: server error (HTTP 500)", Status: 500}, nil))
	got, runs := must2(t)(fs.FeedHistory(ctx, f.ID))
	if diff := cmp.Diff([]kb.FeedRun{failed, held, applied}, runs); diff != "" {
		t.Errorf("runs, newest first (-recorded +read):\n%s", diff)
	}
	if !held.Held || got.ETag != `"v1"` {
		t.Errorf("a held run: held %v; the feed's etag %q, want the applied file's", held.Held, got.ETag)
	}
	r, err := fs.HeldFile(ctx, held.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(back, file) {
		t.Errorf("held file: %d bytes, %v; want the %d kept", len(back), err, len(file))
	}
	for _, id := range []int64{applied.ID, failed.ID, failed.ID + 1000} {
		if _, err := fs.HeldFile(ctx, id); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("held file of run %d: %v, want not found", id, err)
		}
	}
	if _, err := fs.RecordFeedRun(ctx, "", kb.FeedRun{FeedID: f.ID, Outcome: "maybe"}, nil); err == nil {
		t.Errorf("a run with an unknown outcome was recorded")
	}
	if _, err := fs.RecordFeedRun(ctx, "", kb.FeedRun{FeedID: f.ID + 1000, Outcome: kb.FeedFailed}, nil); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("a run of no feed: %v, want not found", err)
	}
	if err := fs.RemoveFeed(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.HeldFile(ctx, held.ID); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("held file of a removed feed: %v, want not found", err)
	}
}

// must2 is must for the feed and runs of FeedHistory.
func must2(t *testing.T) func(kb.Feed, []kb.FeedRun, error) (kb.Feed, []kb.FeedRun) {
	return func(f kb.Feed, runs []kb.FeedRun, err error) (kb.Feed, []kb.FeedRun) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f, runs
	}
}

// testFeedsClaimRace: claimers that race for one due feed, as servers
// over one database do, let one of them win.
func testFeedsClaimRace(t *testing.T, fs kb.FeedStore) {
	ctx := t.Context()
	removeFeeds(t, fs)
	for round := range 5 {
		f := must[kb.Feed](t)(fs.AddFeed(ctx, kb.Feed{Vendor: "V", Package: fmt.Sprint("P", round), URL: "https://x.example/p", MaxRemoval: 20}))
		now := time.Now().Add(time.Second)
		const claimers = 6
		start := make(chan struct{})
		var wg sync.WaitGroup
		var mu sync.Mutex
		var winners []string
		for i := range claimers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				holder := fmt.Sprint("server-", i)
				got, ok, err := fs.ClaimDueFeed(ctx, now, holder, time.Minute, false)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					winners = append(winners, fmt.Sprintf("%s took feed %d", holder, got.ID))
					mu.Unlock()
				}
			}()
		}
		close(start)
		wg.Wait()
		if len(winners) != 1 || !strings.HasSuffix(winners[0], fmt.Sprint(" feed ", f.ID)) {
			t.Errorf("round %d: %d claimers racing for feed %d: %v; want one winner", round, claimers, f.ID, winners)
		}
		if err := fs.RemoveFeed(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
	}
}
