package kb

import (
	"fmt"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ParseFeedEvery reads a feed's schedule (--every): a Go duration such as
// "24h" or "90m", or "daily" or "weekly"; "" is DefaultFeedEvery. A
// schedule shorter than MinFeedEvery is refused.
func ParseFeedEvery(s string) (time.Duration, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return DefaultFeedEvery, nil
	case "daily":
		return 24 * time.Hour, nil
	case "weekly":
		return 7 * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, Errorf(CodeInvalid, "every: %q is not a schedule: give a duration such as 24h or 90m, or daily or weekly", s)
	}
	if d < MinFeedEvery {
		return 0, Errorf(CodeInvalid, "every: %s is too short: a feed runs at most once a minute (1m)", d)
	}
	return d, nil
}

// refusedFeedHeaders are the headers a feed may not set: the hop-by-hop
// headers (RFC 9110, 7.6.1), Host, and those the fetch sets itself (the
// body's length and encoding, the conditional request's validators).
var refusedFeedHeaders = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Authenticate": true, "Proxy-Authorization": true,
	"Proxy-Connection": true, "Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true,
	"Host": true, "Content-Length": true, "Accept-Encoding": true, "If-None-Match": true, "If-Modified-Since": true,
}

// ParseFeedHeader reads a request header of a feed (--header 'Name:
// value'). The name must be an HTTP token and not one the fetch manages
// itself (hop-by-hop headers, Host, Content-Length, Accept-Encoding, the
// conditional request's); the value may not hold a line break. The error
// never shows the value, which is a Secret.
func ParseFeedHeader(s string) (FeedHeader, error) {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return FeedHeader{}, Errorf(CodeInvalid, "header: give it as 'Name: value'")
	}
	for _, c := range []byte(name) {
		if !isTokenByte(c) {
			return FeedHeader{}, Errorf(CodeInvalid, "header: %q is not a header name: use letters, digits and -", name)
		}
	}
	name = textproto.CanonicalMIMEHeaderKey(name)
	if refusedFeedHeaders[name] {
		return FeedHeader{}, Errorf(CodeInvalid, "header: %s may not be set: the fetch manages it", name)
	}
	value = strings.TrimSpace(value)
	if strings.ContainsAny(value, "\r\n\x00") {
		return FeedHeader{}, Errorf(CodeInvalid, "header: the value of %s holds a line break", name)
	}
	return FeedHeader{Name: name, Value: Secret(value)}, nil
}

// isTokenByte reports whether c may be part of an HTTP token (RFC 9110,
// 5.6.2).
func isTokenByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// ParseFeedMaxRemoval reads the share of a package's titles a run may
// remove without review (--max-removal): a percentage from 0 to 100, with
// or without "%", such as "20%" or "2.5"; "" is DefaultFeedMaxRemoval.
func ParseFeedMaxRemoval(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return DefaultFeedMaxRemoval, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil || v < 0 || v > 100 || v != v {
		return 0, Errorf(CodeInvalid, "max-removal: %q is not a share: give a percentage from 0%% to 100%%, such as 20%%", s)
	}
	return v, nil
}

// FeedCounts is what a run learnt of a fetched file before applying it.
type FeedCounts struct {
	Empty       bool // the body was empty
	KBARTHeader bool // its first line was a KBART header
	RowsRead    int  // the data rows read, refused ones included
	RowsRefused int  // the rows the import refused
	// PackageTitles is the number of titles the package has now, and
	// Removed the number the file would remove. For a holdings feed
	// (Holdings), PackageTitles is the number of the package's titles the
	// customer selects now, and Removed the number the file would
	// deselect.
	PackageTitles, Removed int
	// Holdings marks the counts of a customer's holdings file, whose
	// RowsUnmatched rows (read, not refused) named no title of the
	// package. They hold nothing by themselves: an institution's file
	// often lists its titles of several packages, and a file of another
	// package altogether is held by what it would deselect.
	Holdings      bool
	RowsUnmatched int
}

// FeedVerdict is the result of FeedChecks: Held with the reason, or ok.
type FeedVerdict struct {
	Held   bool
	Reason string
}

// FeedChecks decides whether a fetched file may be applied or is held for
// review, in this order: an empty body, a first line that is not a KBART
// header, a file without data rows, more than FeedMaxRefused percent of
// its rows refused, and more than maxRemoval percent of the package's titles
// removed (for a holdings file: of the titles the customer selects,
// deselected). A package without titles can lose none.
func FeedChecks(c FeedCounts, maxRemoval float64) FeedVerdict {
	switch {
	case c.Empty:
		return FeedVerdict{Held: true, Reason: "the file is empty"}
	case !c.KBARTHeader:
		return FeedVerdict{Held: true, Reason: "the file does not start with a KBART header"}
	case c.RowsRead == 0:
		return FeedVerdict{Held: true, Reason: "the file has a header but no rows"}
	case float64(c.RowsRefused)*100 > FeedMaxRefused*float64(c.RowsRead):
		return FeedVerdict{Held: true, Reason: fmt.Sprintf("%d of its %d rows (%s) were refused, more than %s",
			c.RowsRefused, c.RowsRead, percent(c.RowsRefused, c.RowsRead), formatPercent(FeedMaxRefused))}
	case c.Holdings && c.PackageTitles > 0 && float64(c.Removed)*100 > maxRemoval*float64(c.PackageTitles):
		return FeedVerdict{Held: true, Reason: fmt.Sprintf("it would deselect %d of the %d titles of the package the customer selects (%s), more than %s",
			c.Removed, c.PackageTitles, percent(c.Removed, c.PackageTitles), formatPercent(maxRemoval))}
	case c.PackageTitles > 0 && float64(c.Removed)*100 > maxRemoval*float64(c.PackageTitles):
		return FeedVerdict{Held: true, Reason: fmt.Sprintf("it would remove %d of the package's %d titles (%s), more than %s",
			c.Removed, c.PackageTitles, percent(c.Removed, c.PackageTitles), formatPercent(maxRemoval))}
	}
	return FeedVerdict{}
}

// percent writes n of total as a percentage with at most one decimal.
func percent(n, total int) string { return formatPercent(float64(n) * 100 / float64(total)) }

// formatPercent writes a percentage with at most one decimal.
func formatPercent(v float64) string {
	return strconv.FormatFloat(float64(int64(v*10+0.5))/10, 'f', -1, 64) + "%"
}

// redactedText replaces a secret in an address shown by RedactURL.
const redactedText = "REDACTED"

// secretParamWords are the parts of query parameters' names that hold
// secrets; a name is compared lower case with - and _ removed.
var secretParamWords = []string{"token", "key", "secret", "password", "passwd", "pwd", "auth", "sig", "credential", "session"}

// RedactURL returns the address raw as messages and logs may show it: its
// user information (user and password) and the values of query parameters
// whose names speak of a token, key (apikey, api_key), secret, password,
// signature, authorisation, credential or session replaced by REDACTED,
// and the fragment dropped. An address that does not parse is shown by
// its scheme and host at most. Tokens elsewhere in the path cannot be told
// apart from names and are shown.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.Index(raw, "://"); i > 0 {
			rest := raw[i+3:]
			if j := strings.IndexAny(rest, "/?#"); j >= 0 {
				rest = rest[:j]
			}
			if k := strings.LastIndexByte(rest, '@'); k >= 0 {
				rest = redactedText + "@" + rest[k+1:]
			}
			return raw[:i+3] + rest + "/(address not shown)"
		}
		return "(address not shown)"
	}
	if u.User != nil {
		u.User = url.User(redactedText)
	}
	u.Fragment, u.RawFragment = "", ""
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			name, _, hasValue := strings.Cut(p, "=")
			if n, err := url.QueryUnescape(name); err == nil && hasValue && secretParam(n) {
				parts[i] = name + "=" + redactedText
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// secretParam reports whether a query parameter's name speaks of a
// secret.
func secretParam(name string) bool {
	n := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	for _, w := range secretParamWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// The limits of the holdings feeds a library adds itself (through the API
// or the console), whose addresses the server fetches on its behalf.
const (
	// MinLibraryFeedEvery is the shortest schedule of a library's feed:
	// an institution's file changes with its subscriptions, not by the
	// minute, and its publisher's server is not to be polled.
	MinLibraryFeedEvery = time.Hour
	// MaxLibraryFeeds is the most holdings feeds one customer keeps.
	MaxLibraryFeeds = 100
	// MaxLibraryFeedHeaders is the most request headers of one.
	MaxLibraryFeedHeaders = 5
	// MaxFeedURL is the longest address of a feed, in bytes.
	MaxFeedURL = 2048
)

// CheckLibraryFeedURL checks the address of a library's holdings feed: an
// absolute http or https URL with a host, at most MaxFeedURL bytes. (Where
// it may connect is the fetch's check, made on the address dialled.)
func CheckLibraryFeedURL(raw string) error {
	s := strings.TrimSpace(raw)
	if s == "" {
		return Errorf(CodeMissing, "url: give the address of the institution's KBART file")
	}
	if len(s) > MaxFeedURL {
		return Errorf(CodeInvalid, "url: the address has %d bytes, more than %d", len(s), MaxFeedURL)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(CodeInvalid, "url: %s is not an http or https address", RedactURL(s))
	}
	return nil
}

// FeedEveryWords says a feed's schedule for people: "daily", "weekly",
// "every 3 days", "every 12h0m0s".
func FeedEveryWords(d time.Duration) string {
	switch d {
	case 24 * time.Hour:
		return "daily"
	case 7 * 24 * time.Hour:
		return "weekly"
	}
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("every %d days", d/(24*time.Hour))
	}
	return "every " + d.String()
}
