package kb

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Citation is what a link resolver understood of an OpenURL: the
// identifiers and title it matches on, the date, volume and issue it
// checks coverage with, the DOI of an article-level link, and notes on
// what it ignored and why. Its fields hold only valid values: an ISSN
// whose check digit fails, a date that is not a date, a volume that is
// not a number are left out, with a note.
type Citation struct {
	Genre string // journal, article, book, bookitem, … as given (lower-case); "" when none
	// ISSNs are the citation's ISSNs (print and online alike) in the form
	// 1234-567X; ISBNs its ISBNs as 13 digits. One whose check digit
	// fails is kept as given (an ISBN-10 as its 10 characters), since
	// the knowledge base keeps such identifiers as published.
	ISSNs, ISBNs []string
	Title        string // the journal's or book's title
	ArticleTitle string
	Author       string // the first author's last name, or the whole author
	// Date is yyyy, yyyy-mm or yyyy-mm-dd; "" when none was given or it
	// could not be read.
	Date          string
	Volume, Issue string // positive whole numbers as decimal; "" when none
	StartPage     string
	DOI           string // without "doi:" or "info:doi/", e.g. 10.1000/182
	Source        string // the citing source: sid, or rfr_id without info:sid/
	Notes         []string
}

// Matchable reports whether the citation has anything to match titles on:
// an identifier or a title.
func (c Citation) Matchable() bool {
	return len(c.ISSNs) > 0 || len(c.ISBNs) > 0 || strings.TrimSpace(c.Title) != ""
}

// Citation limits: a value longer than MaxCitationValue characters, or a
// request with more than MaxCitationParams values, is refused (400): no
// real citation comes near them.
const (
	MaxCitationValue  = 1000
	MaxCitationParams = 200
	// maxVolume is the biggest volume or issue number read; a bigger one
	// is ignored as impossible.
	maxVolume = 100000
	// maxDOI bounds the DOI of an article-level link, in bytes: real ones
	// are well under 100, and the link-out's address, which carries it,
	// must stay within the server's bound on a path.
	maxDOI = 300
)

// citationKeys maps each OpenURL key the resolver reads, 0.1 and
// Z39.88-2004 KEV (rft.*) alike, to the citation field it fills. When a
// field has several keys, the first with a usable value wins.
var citationKeys = map[string]string{
	"genre": "genre", "rft.genre": "genre",
	"issn": "issn", "rft.issn": "issn", "eissn": "issn", "rft.eissn": "issn",
	"isbn": "isbn", "rft.isbn": "isbn", "eisbn": "isbn", "rft.eisbn": "isbn",
	"title": "title", "jtitle": "title", "btitle": "title", "rft.jtitle": "title", "rft.btitle": "title", "rft.title": "title",
	"stitle": "stitle", "rft.stitle": "stitle",
	"atitle": "atitle", "rft.atitle": "atitle",
	"aulast": "aulast", "rft.aulast": "aulast", "au": "au", "rft.au": "au",
	"date": "date", "rft.date": "date",
	"volume": "volume", "rft.volume": "volume",
	"issue": "issue", "rft.issue": "issue",
	"spage": "spage", "rft.spage": "spage",
	"id": "id", "rft_id": "id",
	"sid": "sid", "rfr_id": "sid",
}

// ParseCitation reads an OpenURL's query (or form) values: OpenURL 0.1
// (genre, issn, eissn, isbn, title, atitle, aulast, date, volume, issue,
// spage, id=doi:…, sid) and Z39.88-2004 KEV (url_ver, rft_val_fmt, rft.*,
// rft_id=info:doi/…, rfr_id=info:sid/…). Other keys are ignored. today is
// the resolver's date, which bounds a citation's year.
//
// Only a request past the limits is refused: more than MaxCitationParams
// values, or a value longer than MaxCitationValue characters, is
// CodeInvalid naming the parameter. Anything else that cannot be read is
// left out of the citation with a note: source metadata is often wrong,
// and a resolver makes the most of what it gets.
func ParseCitation(v url.Values, today time.Time) (Citation, error) {
	var c Citation
	n := 0
	for k, vs := range v {
		n += len(vs)
		for _, s := range vs {
			if l := utf8.RuneCountInString(s); l > MaxCitationValue {
				return Citation{}, Errorf(CodeInvalid, "Parameter %s is %d characters long; the limit is %d.", paramName(k), l, MaxCitationValue)
			}
			if !utf8.ValidString(s) {
				return Citation{}, Errorf(CodeInvalid, "Parameter %s is not valid UTF-8.", paramName(k))
			}
			if strings.ContainsRune(s, 0) {
				// As a query's NUL is refused before any handler sees it,
				// so is a form's.
				return Citation{}, Errorf(CodeInvalid, "Parameter %s holds a NUL character.", paramName(k))
			}
		}
	}
	if n > MaxCitationParams {
		return Citation{}, Errorf(CodeInvalid, "The citation has %d parameter values; the limit is %d.", n, MaxCitationParams)
	}
	// Keys in a fixed order, so that the first usable value is the same
	// every time: the 0.1 key before its rft. twin.
	var titles, stitles, aus []string
	var dates, vols, issues []string
	for _, k := range sortedKeys(v) {
		field, ok := citationKeys[k]
		if !ok {
			continue
		}
		for _, s := range v[k] {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			switch field {
			case "genre":
				if c.Genre == "" {
					c.Genre = strings.ToLower(s)
				}
			case "issn":
				var d [8]byte
				switch norm, ok := NormalizeISSN(s); {
				case ok:
					c.ISSNs = appendNew(c.ISSNs, norm)
				case issnDigits(s, &d):
					// Sources and publishers alike carry ISSNs whose check
					// digit fails: match it as given.
					c.ISSNs = appendNew(c.ISSNs, string(d[:4])+"-"+string(d[4:]))
					c.note("The ISSN %q (%s) has a wrong check digit; it was matched as given.", s, k)
				default:
					c.note("The ISSN %q (%s) is not an ISSN and was ignored.", s, k)
				}
			case "isbn":
				var d [13]byte
				norm, ok := NormalizeISBN(s)
				switch n := isbnDigits(s, &d); {
				case ok:
					c.ISBNs = appendNew(c.ISBNs, norm)
				case n != 0:
					c.ISBNs = appendNew(c.ISBNs, string(d[:n]))
					c.note("The ISBN %q (%s) has a wrong check digit; it was matched as given.", s, k)
				default:
					c.note("The ISBN %q (%s) is not an ISBN and was ignored.", s, k)
				}
			case "title":
				titles = append(titles, s)
			case "stitle":
				stitles = append(stitles, s)
			case "atitle":
				if c.ArticleTitle == "" {
					c.ArticleTitle = s
				}
			case "aulast":
				if c.Author == "" {
					c.Author = s
				}
			case "au":
				aus = append(aus, s)
			case "date":
				dates = append(dates, s)
			case "volume":
				vols = append(vols, s)
			case "issue":
				issues = append(issues, s)
			case "spage":
				if c.StartPage == "" {
					c.StartPage = s
				}
			case "id":
				doi, ok := citationDOI(s)
				switch {
				case !ok || c.DOI != "":
				case len(doi) > maxDOI:
					c.note("The DOI (%s) is %d bytes long, more than a real one (%d); it was ignored.", k, len(doi), maxDOI)
				default:
					c.DOI = doi
				}
			case "sid":
				if c.Source == "" {
					c.Source = strings.TrimPrefix(s, "info:sid/")
				}
			}
		}
	}
	if len(titles) > 0 {
		c.Title = titles[0]
	} else if len(stitles) > 0 {
		c.Title = stitles[0]
	}
	if c.Author == "" && len(aus) > 0 {
		c.Author = aus[0]
	}
	if len(dates) > 0 {
		c.Date = c.readDate(dates[0], today)
	}
	if len(vols) > 0 {
		c.Volume = c.readNumber("volume", vols[0])
	}
	if len(issues) > 0 {
		c.Issue = c.readNumber("issue", issues[0])
	}
	return c, nil
}

// paramName names a parameter in a message: as it is when it is a plain
// key (letters, digits, '.', '_', '-'), else quoted and cut when long.
func paramName(k string) string {
	plain := k != "" && len(k) <= 40
	for i := 0; i < len(k) && plain; i++ {
		c := k[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if plain {
		return k
	}
	if utf8.RuneCountInString(k) > 40 {
		r := []rune(k)
		k = string(r[:40]) + "…"
	}
	return strconv.Quote(k)
}

func (c *Citation) note(format string, args ...any) {
	c.Notes = append(c.Notes, Errorf(0, format, args...).Message)
}

// citationDOI returns the DOI of an id value: "doi:10.…", "info:doi/10.…",
// a https://doi.org/ address, or a bare "10.…/…".
func citationDOI(s string) (string, bool) {
	for _, p := range []string{"info:doi/", "doi:", "https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			s = s[len(p):]
			break
		}
	}
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	s = strings.TrimSpace(s)
	// A DOI is 10.<registrant>/<suffix>, the suffix not empty.
	pre, suf, ok := strings.Cut(s, "/")
	if !ok || suf == "" || !strings.HasPrefix(pre, "10.") || len(pre) < 4 {
		return "", false
	}
	for _, r := range s {
		if r < 0x21 || r == 0x7f {
			return "", false
		}
	}
	return s, true
}

// readDate reads a citation's date: yyyy, yyyy-mm, yyyy-mm-dd, yyyymm or
// yyyymmdd, with anything after a 'T' (a time) dropped. A month or day
// that is not one leaves the coarser date with a note; a year before
// 1000 or after next year leaves no date.
func (c *Citation) readDate(s string, today time.Time) string {
	orig := s
	if i := strings.IndexByte(s, 'T'); i > 0 {
		s = s[:i]
	}
	if len(s) == 8 && allDigits(s) {
		s = s[:4] + "-" + s[4:6] + "-" + s[6:]
	} else if len(s) == 6 && allDigits(s) {
		s = s[:4] + "-" + s[4:]
	}
	if len(s) < 4 || !allDigits(s[:4]) || (len(s) > 4 && s[4] != '-') {
		c.note("The date %q is not a date (yyyy, yyyy-mm or yyyy-mm-dd) and was ignored.", orig)
		return ""
	}
	y, _ := strconv.Atoi(s[:4])
	if y < 1000 || y > today.Year()+1 {
		c.note("The year %d of the date %q is impossible and was ignored.", y, orig)
		return ""
	}
	year := s[:4]
	if len(s) == 4 {
		return year
	}
	if len(s) < 7 || !allDigits(s[5:7]) || (len(s) > 7 && s[7] != '-') {
		c.note("The date %q is not a date (yyyy, yyyy-mm or yyyy-mm-dd); its year %s was used.", orig, year)
		return year
	}
	m, _ := strconv.Atoi(s[5:7])
	if m < 1 || m > 12 {
		c.note("The month of the date %q is not a month; its year %s was used.", orig, year)
		return year
	}
	month := s[:7]
	if len(s) == 7 {
		return month
	}
	if len(s) != 10 || !allDigits(s[8:]) {
		c.note("The date %q is not a date (yyyy, yyyy-mm or yyyy-mm-dd); its month %s was used.", orig, month)
		return month
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		c.note("The day of the date %q is not a day of its month; its month %s was used.", orig, month)
		return month
	}
	return s
}

// readNumber reads a volume or issue: a whole number (leading zeros
// dropped), or the number a value begins with ("12 Suppl", "3-4") with a
// note; anything else, or a number above maxVolume or below 1, is
// ignored with a note.
func (c *Citation) readNumber(what, s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		c.note("The %s %q is not a number and was ignored.", what, s)
		return ""
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n < 1 || n > maxVolume {
		c.note("The %s %q is impossible and was ignored.", what, s)
		return ""
	}
	if i < len(s) {
		c.note("The %s %q was read as %d.", what, s, n)
	}
	return strconv.Itoa(n)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// sortedKeys returns the citation keys of v in a fixed order: 0.1 keys
// before their rft. twins, then by name.
func sortedKeys(v url.Values) []string {
	keys := make([]string, 0, len(v))
	for k := range v {
		if _, ok := citationKeys[k]; ok {
			keys = append(keys, k)
		}
	}
	rank := func(k string) string {
		if strings.HasPrefix(k, "rft.") || strings.HasPrefix(k, "rft_") || strings.HasPrefix(k, "rfr_") {
			return "1" + k
		}
		return "0" + k
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && rank(keys[j]) < rank(keys[j-1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
