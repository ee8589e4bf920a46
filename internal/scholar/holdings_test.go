package scholar

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// parsedHoldings is a holdings file as a reader of the format sees it.
type parsedHoldings struct {
	XMLName xml.Name `xml:"institutional_holdings"`
	Items   []struct {
		Type     string   `xml:"type,attr"`
		Title    string   `xml:"title"`
		ISSNs    []string `xml:"issn"`
		Coverage []struct {
			From *parsedIssue `xml:"from"`
			To   *parsedIssue `xml:"to"`
			Days int          `xml:"embargo>days_not_available"`
		} `xml:"coverage"`
	} `xml:"item"`
}

type parsedIssue struct {
	Year   int `xml:"year"`
	Month  int `xml:"month"`
	Volume int `xml:"volume"`
	Issue  int `xml:"issue"`
}

// parseHoldings parses a holdings file strictly and returns its items as
// Items.
func parseHoldings(t *testing.T, name string, b []byte) []Item {
	t.Helper()
	if !utf8.Valid(b) {
		t.Fatalf("%s is not UTF-8", name)
	}
	if !bytes.HasPrefix(b, []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n<!DOCTYPE institutional_holdings PUBLIC")) {
		t.Errorf("%s does not begin with the declaration and the DOCTYPE: %.120q", name, b)
	}
	var doc parsedHoldings
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	if err := d.Decode(&doc); err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			if err != io.EOF {
				t.Errorf("%s after its root element: %v", name, err)
			}
			break
		}
		if cd, ok := tok.(xml.CharData); !ok || len(bytes.TrimSpace(cd)) > 0 {
			t.Errorf("%s has more after its root element: %v", name, tok)
		}
	}
	var out []Item
	for _, it := range doc.Items {
		if it.Type != "electronic" {
			t.Errorf("%s: item type %q", name, it.Type)
		}
		x := Item{Title: it.Title, ISSNs: it.ISSNs}
		for _, c := range it.Coverage {
			r := Range{DaysNotAvailable: c.Days}
			if c.From != nil {
				r.From = Issue(*c.From)
			}
			if c.To != nil {
				r.To = Issue(*c.To)
			}
			x.Coverage = append(x.Coverage, r)
		}
		out = append(out, x)
	}
	return out
}

// writeAll writes items with a writer of files of at most max bytes and
// returns the files by name, and the names in order.
func writeAll(t *testing.T, max int, items []Item) (map[string][]byte, []string, Stats) {
	t.Helper()
	files := map[string][]byte{}
	w := NewHoldingsWriterSize(func(name string, b []byte) error {
		if _, dup := files[name]; dup {
			t.Errorf("%s saved twice", name)
		}
		files[name] = bytes.Clone(b)
		return nil
	}, max)
	for i := range items {
		if err := w.AddItem(&items[i]); err != nil {
			t.Fatal(err)
		}
	}
	names, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return files, names, w.Stats()
}

// checkFiles checks that the files are the named ones, each parses and
// holds at most max bytes, and returns their items in order.
func checkFiles(t *testing.T, files map[string][]byte, names []string, max int) []Item {
	t.Helper()
	if len(names) != len(files) || len(names) == 0 {
		t.Fatalf("names %v for %d files", names, len(files))
	}
	var all []Item
	for i, name := range names {
		if want := HoldingsName(i + 1); name != want {
			t.Errorf("file %d is named %s, want %s", i+1, name, want)
		}
		b := files[name]
		if len(b) > max {
			t.Errorf("%s has %d bytes, more than %d", name, len(b), max)
		}
		all = append(all, parseHoldings(t, name, b)...)
	}
	return all
}

// xmlText is what a reader gets back of s written as character data:
// invalid UTF-8 and characters XML may not hold become U+FFFD.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range s { // an invalid byte is one utf8.RuneError
		if r == utf8.RuneError {
			b.WriteRune(r)
		} else if r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			b.WriteRune(r)
		} else {
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

func TestHoldingsWriterSplits(t *testing.T) {
	var items []Item
	for i := range 40 {
		items = append(items, Item{Title: strings.Repeat("Annals ", i%5+1) + "& <Review>", ISSNs: []string{"0317-8471"},
			Coverage: []Range{{From: Issue{Year: 1990 + i, Month: 1, Volume: i + 1, Issue: 2}, To: Issue{Year: 2000 + i, Month: 12}, DaysNotAvailable: i}}})
	}
	const max = 1500
	files, names, st := writeAll(t, max, items)
	if len(names) < 4 {
		t.Errorf("%d files for 40 items of about 250 bytes in files of %d bytes", len(names), max)
	}
	got := checkFiles(t, files, names, max)
	if diff := cmp.Diff(items, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("items read back (-written +read):\n%s", diff)
	}
	if st.Items != 40 || st.TooLarge != 0 {
		t.Errorf("stats %+v", st)
	}
	// Every file but the last is full: the next item would not have fit.
	for i, name := range names[:len(names)-1] {
		next := appendItem(nil, &items[countItems(t, files, names[:i+1])])
		if len(files[name])+len(next) <= max {
			t.Errorf("%s has %d bytes and room for the next item's %d", name, len(files[name]), len(next))
		}
	}
}

// countItems counts the items of the named files.
func countItems(t *testing.T, files map[string][]byte, names []string) int {
	t.Helper()
	n := 0
	for _, name := range names {
		n += bytes.Count(files[name], []byte("<item "))
	}
	return n
}

func TestHoldingsWriterEmpty(t *testing.T) {
	files, names, _ := writeAll(t, MaxFileBytes, nil)
	if diff := cmp.Diff([]string{"holdings-1.xml"}, names); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
	if got := checkFiles(t, files, names, MaxFileBytes); len(got) != 0 {
		t.Errorf("items of an empty collection: %+v", got)
	}
}

func TestHoldingsWriterAtTheLimit(t *testing.T) {
	// About 1.5 MB of items: two files of at most MaxFileBytes.
	items := make([]Item, 4500) // about 340 bytes each
	for i := range items {
		items[i] = Item{Title: "International Journal of Rather Long Titles, Series " + strings.Repeat("B", i%40),
			ISSNs:    []string{"0317-8471", "1050-124X"},
			Coverage: []Range{{From: Issue{Year: 1950, Month: 1, Volume: 1, Issue: 1}, To: Issue{Year: 2020, Month: 12, Volume: 70}, DaysNotAvailable: 365}}}
	}
	files, names, _ := writeAll(t, MaxFileBytes, items)
	if len(names) != 2 {
		t.Errorf("%d files, want 2", len(names))
	}
	if got := checkFiles(t, files, names, MaxFileBytes); len(got) != len(items) {
		t.Errorf("%d items read back, want %d", len(got), len(items))
	}
	if n := len(files[names[0]]); n < MaxFileBytes-400 {
		t.Errorf("the first file has %d bytes: not filled to the limit", n)
	}
}

func TestHoldingsWriterTooLarge(t *testing.T) {
	big := Item{Title: strings.Repeat("x", 500), ISSNs: []string{"0317-8471"}}
	small := Item{Title: "Short", ISSNs: []string{"0317-8471"}}
	files, names, st := writeAll(t, 400, []Item{small, big, small})
	if st.TooLarge != 1 || st.Items != 2 {
		t.Errorf("stats %+v, want 2 items and 1 too large", st)
	}
	if got := checkFiles(t, files, names, 400); len(got) != 2 {
		t.Errorf("%d items read back, want 2", len(got))
	}
}

func TestHoldingsWriterSaveError(t *testing.T) {
	boom := errors.New("disk full")
	w := NewHoldingsWriterSize(func(string, []byte) error { return boom }, 300)
	it := Item{Title: "Annals of Everything", ISSNs: []string{"0317-8471"}}
	var err error
	for i := 0; i < 10 && err == nil; i++ {
		err = w.AddItem(&it)
	}
	if err == nil {
		_, err = w.Close()
	}
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want the save's", err)
	}
}

// TestHoldingsFilesRandom writes random items, with titles of any bytes
// (markup, control characters, invalid UTF-8, long runs of multi-byte
// characters) in files of random limits: every file is well-formed XML of
// at most its limit, and reads back as what was written.
func TestHoldingsFilesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	pieces := []string{"a", "Journal ", "&", "<", ">", "\"", "'", "\x00", "\x01", "\t", "\n", "\r", "\xff", "\xc3", "é", "日本",
		"\U0001F600", "\uFFFE", "\uFFFF", "\ufeff", "]]>", "&amp;", "<!--", "\u2028", "\x7f"}
	for round := range 200 {
		max := 300 + rng.IntN(3000)
		items := make([]Item, rng.IntN(30))
		for i := range items {
			var title strings.Builder
			for range 1 + rng.IntN(20) {
				title.WriteString(pieces[rng.IntN(len(pieces))])
			}
			it := Item{Title: title.String(), ISSNs: []string{"0317-8471"}}
			for range rng.IntN(4) {
				it.Coverage = append(it.Coverage, Range{
					From:             Issue{Year: rng.IntN(3) * 1990, Month: rng.IntN(13), Volume: rng.IntN(3) * 7, Issue: rng.IntN(2) * 3},
					To:               Issue{Year: rng.IntN(2) * 2020, Month: rng.IntN(13), Volume: rng.IntN(2) * 30},
					DaysNotAvailable: rng.IntN(2) * 365,
				})
			}
			items[i] = it
		}
		files, names, st := writeAll(t, max, items)
		got := checkFiles(t, files, names, max)
		var want []Item
		for i, it := range items {
			if len(appendItem(nil, &items[i]))+len(holdingsHead)+len(holdingsTail) > max {
				continue // too large for any file: left out
			}
			it.Title = xmlText(it.Title)
			for j := range it.Coverage {
				c := &it.Coverage[j]
				if c.From.Year == 0 {
					c.From = Issue{}
				}
				if c.To.Year == 0 {
					c.To = Issue{}
				}
			}
			want = append(want, it)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round %d (limit %d): items read back (-written +read):\n%s", round, max, diff)
		}
		if st.Items != len(want) || st.Items+st.TooLarge != len(items) {
			t.Fatalf("round %d: stats %+v for %d items, %d written", round, st, len(items), len(want))
		}
	}
}

// FuzzHoldingsTitle writes an item of any title: its file parses and
// gives the title back as XML can hold it.
func FuzzHoldingsTitle(f *testing.F) {
	for _, s := range []string{"Annals", "A & B <C>", "\x00\xff", "日本語", "\r\n\t", "]]>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		items := []Item{{Title: title, ISSNs: []string{"0317-8471"}, Coverage: []Range{{From: Issue{Year: 2000, Month: 1}}}}}
		files, names, st := writeAll(t, MaxFileBytes, items)
		got := checkFiles(t, files, names, MaxFileBytes)
		if st.TooLarge == 1 {
			return
		}
		if len(got) != 1 || got[0].Title != xmlText(title) {
			t.Fatalf("title %q read back as %+v", title, got)
		}
	})
}

func TestHoldingsNumber(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"holdings-1.xml", 1, true},
		{"holdings-42.xml", 42, true},
		{"holdings-0.xml", 0, false},
		{"holdings-01.xml", 0, false},
		{"holdings-.xml", 0, false},
		{"holdings-1.xmlx", 0, false},
		{"holdings-1a.xml", 0, false},
		{"holdings-1234567890.xml", 0, false},
		{"institutional_links.xml", 0, false},
		{"../holdings-1.xml", 0, false},
	} {
		n, ok := HoldingsNumber(c.name)
		if n != c.n || ok != c.ok {
			t.Errorf("HoldingsNumber(%q) = %d, %v; want %d, %v", c.name, n, ok, c.n, c.ok)
		}
		if ok && HoldingsName(n) != c.name {
			t.Errorf("HoldingsName(%d) = %q, want %q", n, HoldingsName(n), c.name)
		}
	}
}
