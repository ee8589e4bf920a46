package kb

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestParseFeedEvery(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		err  bool
	}{
		{"", DefaultFeedEvery, false},
		{"daily", 24 * time.Hour, false},
		{"Weekly", 7 * 24 * time.Hour, false},
		{"90m", 90 * time.Minute, false},
		{" 2h ", 2 * time.Hour, false},
		{"1m", time.Minute, false},
		{"59s", 0, true},
		{"-1h", 0, true},
		{"0", 0, true},
		{"monthly", 0, true},
		{"24", 0, true},
	} {
		got, err := ParseFeedEvery(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseFeedEvery(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
		}
		if err != nil && (ErrorCode(err) != CodeInvalid || !strings.Contains(err.Error(), "every")) {
			t.Errorf("ParseFeedEvery(%q): error %v should be invalid and name every", c.in, err)
		}
	}
}

func TestParseFeedHeader(t *testing.T) {
	for _, c := range []struct {
		in, name, value string
		err             bool
	}{
		{"Authorization: Bearer abc123", "Authorization", "Bearer abc123", false},
		{"x-api-key:  k1 ", "X-Api-Key", "k1", false},
		{"X-Empty:", "X-Empty", "", false},
		{"Host: example.org", "", "", true},
		{"connection: close", "", "", true},
		{"Transfer-Encoding: chunked", "", "", true},
		{"Proxy-Authorization: x", "", "", true},
		{"Accept-Encoding: br", "", "", true},
		{"If-None-Match: x", "", "", true},
		{"no colon", "", "", true},
		{": value", "", "", true},
		{"Bad Name: x", "", "", true},
		{"X-Token: a\nInjected: b", "", "", true},
	} {
		got, err := ParseFeedHeader(c.in)
		if (err != nil) != c.err || got.Name != c.name || string(got.Value) != c.value {
			t.Errorf("ParseFeedHeader(%q) = %q %q, %v; want %q %q, error %v", c.in, got.Name, string(got.Value), err, c.name, c.value, c.err)
		}
		if err != nil && c.in == "X-Token: a\nInjected: b" && strings.Contains(err.Error(), "Injected") {
			t.Errorf("the error shows the value: %v", err)
		}
	}
}

// TestSecretNeverPrints: every way a feed or its header may be printed,
// to a message or a log, hides the header's value and the address's
// token. (JSON shows the address as it is: what a script prints is the
// command line's choice.)
func TestSecretNeverPrints(t *testing.T) {
	h := FeedHeader{Name: "Authorization", Value: "Bearer s3cr3t"}
	f := Feed{ID: 3, Vendor: "V", Package: "P", URL: "https://x.example/f.txt?apikey=s3cr3t", Headers: []FeedHeader{h}}
	js, err := json.Marshal(f.Headers)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	slog.New(slog.NewTextHandler(&log, nil)).Info("feed", "header", h.Value, "feed", f)
	if got, want := f.String(), "feed 3 (V / P from https://x.example/f.txt?apikey=REDACTED)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, s := range []string{fmt.Sprint(f), fmt.Sprintf("%v", h), fmt.Sprintf("%+v", f), fmt.Sprintf("%#v", f), fmt.Sprintf("%s", h.Value), string(js), log.String()} {
		if strings.Contains(s, "s3cr3t") {
			t.Errorf("the secret prints: %s", s)
		}
	}
}

func TestParseFeedMaxRemoval(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		err  bool
	}{
		{"", DefaultFeedMaxRemoval, false},
		{"20%", 20, false},
		{"2.5", 2.5, false},
		{"0%", 0, false},
		{"100 %", 100, false},
		{"101%", 0, true},
		{"-1%", 0, true},
		{"NaN", 0, true},
		{"a lot", 0, true},
	} {
		got, err := ParseFeedMaxRemoval(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseFeedMaxRemoval(%q) = %v, %v; want %v, error %v", c.in, got, err, c.want, c.err)
		}
	}
}

func TestFeedChecks(t *testing.T) {
	ok := FeedCounts{KBARTHeader: true, RowsRead: 100, RowsRefused: 10, PackageTitles: 10, Removed: 2}
	for _, c := range []struct {
		name   string
		counts FeedCounts
		max    float64
		reason string // "" for ok
	}{
		{"ok at both limits", ok, 20, ""},
		{"empty", FeedCounts{Empty: true}, 20, "the file is empty"},
		{"not KBART", FeedCounts{RowsRead: 5}, 20, "the file does not start with a KBART header"},
		{"header only", FeedCounts{KBARTHeader: true}, 20, "the file has a header but no rows"},
		{"refused over 10%", FeedCounts{KBARTHeader: true, RowsRead: 100, RowsRefused: 11}, 20, "11 of its 100 rows (11%) were refused, more than 10%"},
		{"removal over the share", FeedCounts{KBARTHeader: true, RowsRead: 7, PackageTitles: 10, Removed: 3}, 20, "it would remove 3 of the package's 10 titles (30%), more than 20%"},
		{"removal with no share", FeedCounts{KBARTHeader: true, RowsRead: 9, PackageTitles: 10, Removed: 1}, 0, "it would remove 1 of the package's 10 titles (10%), more than 0%"},
		{"everything may go", FeedCounts{KBARTHeader: true, RowsRead: 1, PackageTitles: 3, Removed: 3}, 100, ""},
		{"new package", FeedCounts{KBARTHeader: true, RowsRead: 1}, 0, ""},
		{"holdings: unmatched rows hold nothing", FeedCounts{Holdings: true, KBARTHeader: true, RowsRead: 100, RowsRefused: 5, RowsUnmatched: 60}, 20, ""},
		{"holdings: refused rows", FeedCounts{Holdings: true, KBARTHeader: true, RowsRead: 100, RowsRefused: 11}, 20,
			"11 of its 100 rows (11%) were refused, more than 10%"},
		{"holdings: at the limit", FeedCounts{Holdings: true, KBARTHeader: true, RowsRead: 100, RowsRefused: 5, RowsUnmatched: 5, PackageTitles: 10, Removed: 2}, 20, ""},
		{"holdings: deselection over the share", FeedCounts{Holdings: true, KBARTHeader: true, RowsRead: 100, PackageTitles: 40, Removed: 9}, 20,
			"it would deselect 9 of the 40 titles of the package the customer selects (22.5%), more than 20%"},
		{"holdings: nothing selected yet", FeedCounts{Holdings: true, KBARTHeader: true, RowsRead: 100}, 0, ""},
		{"fractional share", FeedCounts{KBARTHeader: true, RowsRead: 1, PackageTitles: 3, Removed: 1}, 33.3, "it would remove 1 of the package's 3 titles (33.3%), more than 33.3%"},
	} {
		got := FeedChecks(c.counts, c.max)
		if got.Held != (c.reason != "") || got.Reason != c.reason {
			t.Errorf("%s: FeedChecks = %+v, want reason %q", c.name, got, c.reason)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://pub.example/kbart/all.txt", "https://pub.example/kbart/all.txt"},
		{"https://pub.example/f.txt?token=abc&x=1", "https://pub.example/f.txt?token=REDACTED&x=1"},
		{"https://pub.example/f.txt?apikey=abc&API_KEY=d&access-token=e&client_secret=f&sig=g",
			"https://pub.example/f.txt?apikey=REDACTED&API_KEY=REDACTED&access-token=REDACTED&client_secret=REDACTED&sig=REDACTED"},
		{"https://user:pw@pub.example/f.txt", "https://REDACTED@pub.example/f.txt"},
		{"https://tok@pub.example/f.txt#frag", "https://REDACTED@pub.example/f.txt"},
		{"file:///data/kbart/a.txt", "file:///data/kbart/a.txt"},
		{"https://u:p@pub.example/%zz?token=abc", "https://REDACTED@pub.example/(address not shown)"},
		{"not a url \x7f token=abc", "(address not shown)"},
	} {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
