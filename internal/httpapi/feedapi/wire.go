package feedapi

import (
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/kb"
)

// The JSON of the holdings feeds, decided here once.

// feedBody is the body of POST holdingsfeeds.
type feedBody struct {
	VendorID   int64    `json:"vendorId"`
	PackageID  int64    `json:"packageId"`
	URL        string   `json:"url"`
	Every      string   `json:"every"`
	MaxRemoval string   `json:"maxRemoval"`
	Headers    []string `json:"headers"`
}

// feedJSON is a holdings feed: its address with its secrets redacted, its
// request headers by name only.
type feedJSON struct {
	ID          int64     `json:"id"`
	VendorName  string    `json:"vendorName"`
	PackageName string    `json:"packageName"`
	URL         string    `json:"url"`
	Every       string    `json:"every"`
	EverySecs   int64     `json:"everySeconds"`
	MaxRemoval  float64   `json:"maxRemoval"`
	Headers     []string  `json:"headers"`
	Created     string    `json:"created"`
	NextRun     string    `json:"nextRun"`
	LastRun     *runJSON  `json:"lastRun,omitempty"`
	Runs        []runJSON `json:"runs,omitempty"`
}

// runJSON is a run of a feed.
type runJSON struct {
	ID       int64  `json:"id"`
	Started  string `json:"started"`
	Finished string `json:"finished"`
	Outcome  string `json:"outcome"`
	Message  string `json:"message"`
	Status   int    `json:"status"`
	Bytes    int64  `json:"bytes"`
	Selected int    `json:"selected"`
	Deselect int    `json:"deselected"`
	Held     bool   `json:"held"`
}

// reviewJSON is what approving a held run would do now.
type reviewJSON struct {
	Run             runJSON     `json:"run"`
	RowsRead        int         `json:"rowsRead"`
	RowsRefused     int         `json:"rowsRefused"`
	RowsUnmatched   int         `json:"rowsUnmatched"`
	WasSelected     int         `json:"selectedBefore"`
	NowSelected     int         `json:"selectedAfter"`
	Kept            int         `json:"kept"`
	SelectedCount   int         `json:"selectedCount"`
	DeselectedCount int         `json:"deselectedCount"`
	Selected        []titleJSON `json:"selected"`
	Deselected      []titleJSON `json:"deselected"`
}

// titleJSON names a title.
type titleJSON struct {
	TitleID   int64  `json:"titleId"`
	TitleName string `json:"titleName"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func feedWire(f kb.Feed, last *kb.FeedRun, runs []kb.FeedRun) feedJSON {
	j := feedJSON{ID: f.ID, VendorName: f.Vendor, PackageName: f.Package, URL: kb.RedactURL(f.URL), Every: kb.FeedEveryWords(f.Every),
		EverySecs: int64(f.Every / time.Second), MaxRemoval: f.MaxRemoval, Headers: []string{}, Created: stamp(f.Created), NextRun: stamp(f.NextRun)}
	for _, h := range f.Headers {
		j.Headers = append(j.Headers, h.Name)
	}
	if last != nil {
		r := runWire(*last)
		j.LastRun = &r
	}
	if runs != nil {
		j.Runs = make([]runJSON, len(runs))
		for i, r := range runs {
			j.Runs[i] = runWire(r)
		}
	}
	return j
}

func runWire(r kb.FeedRun) runJSON {
	return runJSON{ID: r.ID, Started: stamp(r.Started), Finished: stamp(r.Finished), Outcome: string(r.Outcome), Message: r.Message,
		Status: r.Status, Bytes: r.Bytes, Selected: r.Added, Deselect: r.Removed, Held: r.Held}
}

func reviewWire(rv feeds.Review) reviewJSON {
	p := rv.Preview
	j := reviewJSON{Run: runWire(rv.Run), RowsRead: p.Counts.RowsRead, RowsRefused: p.Counts.RowsRefused, RowsUnmatched: p.Counts.RowsUnmatched,
		WasSelected: p.WasSelected, NowSelected: p.NowSelected, Kept: p.Kept, SelectedCount: len(p.Selected), DeselectedCount: len(p.Deselected),
		Selected: titlesWire(rv.SelectedNames), Deselected: titlesWire(rv.DeselectedNames)}
	return j
}

func titlesWire(ts []feeds.NamedTitle) []titleJSON {
	out := make([]titleJSON, len(ts))
	for i, t := range ts {
		out[i] = titleJSON{TitleID: t.ID, TitleName: t.Name}
	}
	return out
}
