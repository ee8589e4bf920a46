package holdingsapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// encodingJSON is what web.WriteJSON writes for v: encoding/json's Encoder
// with HTML escaping off, a newline at the end.
func encodingJSON(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// awkwardStrings are strings whose JSON forms need care.
var awkwardStrings = []string{
	"", "plain", `quote " and \ backslash`, "tab\tnewline\nreturn\r", "\b\f\x00\x01\x1f\x7f",
	"http://a.example/?a=1&b=<2>", "Zürich – “quotes” 日本 😀", "line\u2028sep\u2029para",
	"bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 beyond U+10FFFF", "ends in \xe2\x80",
}

func TestAppendJSONStringIsEncodingJSON(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := encodingJSON(t, s)
		if got := append(appendJSONString(nil, s), '\n'); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, encoding/json writes %s", s, got, want)
		}
	}
	for _, s := range awkwardStrings {
		check(s)
	}
	for b := range 256 {
		check(string([]byte{byte(b)}))
		check("a" + string([]byte{byte(b)}) + "z")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		check(randomString(rng))
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range awkwardStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := encodingJSON(t, s)
		if got := append(appendJSONString(nil, s), '\n'); !bytes.Equal(got, want) {
			t.Errorf("%q: %s, encoding/json writes %s", s, got, want)
		}
	})
}

// randomString returns a short string of ASCII, control characters,
// multi-byte runes, U+2028 and bytes that are not UTF-8.
func randomString(rng *rand.Rand) string {
	var b []byte
	for range rng.IntN(12) {
		switch rng.IntN(6) {
		case 0:
			b = append(b, byte(rng.IntN(0x20)))
		case 1:
			b = append(b, byte(0x80+rng.IntN(0x80)))
		case 2:
			b = utf8.AppendRune(b, rune(0x80+rng.IntN(0x3000)))
		case 3:
			b = utf8.AppendRune(b, '\u2028'+rune(rng.IntN(2)))
		default:
			b = append(b, byte(0x20+rng.IntN(0x60)))
		}
	}
	return string(b)
}

// fillRandom sets every field reachable from v to a random value: nil or
// not for pointers and slices, awkward strings, numbers of either sign. A
// field added to a wire type is filled too, so the comparison with
// encoding/json below fails until the append functions write it.
func fillRandom(rng *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(rng, v.Field(i))
		}
	case reflect.Pointer:
		if rng.IntN(3) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillRandom(rng, v.Elem())
	case reflect.Slice:
		if rng.IntN(5) == 0 {
			v.SetZero()
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), rng.IntN(4), 4))
		for i := range v.Len() {
			fillRandom(rng, v.Index(i))
		}
	case reflect.String:
		if rng.IntN(2) == 0 {
			v.SetString(awkwardStrings[rng.IntN(len(awkwardStrings))])
		} else {
			v.SetString(randomString(rng))
		}
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64() >> rng.IntN(64) * int64(1-2*rng.IntN(2)))
	default:
		panic("fillRandom: no case for " + v.Type().String())
	}
}

func TestTitleJSONMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		var l titleListResponse
		fillRandom(rng, reflect.ValueOf(&l).Elem())
		want := encodingJSON(t, l)
		if got := append(appendTitleList(nil, &l), '\n'); !bytes.Equal(got, want) {
			t.Fatalf("list %d:\n got %s\nwant %s", i, got, want)
		}
		var title titleWire
		fillRandom(rng, reflect.ValueOf(&title).Elem())
		want = encodingJSON(t, title)
		if got := append(appendTitle(nil, &title), '\n'); !bytes.Equal(got, want) {
			t.Fatalf("title %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// TestWriteTitleIsWriteJSON checks that the title answers have the body and
// the headers web.WriteJSON gives them, and their length.
func TestWriteTitleIsWriteJSON(t *testing.T) {
	title := kb.Title{ID: 7, Name: "Journal of <Tests> & \"Quotes\"", Publisher: "Press", PubType: kb.ResourceJournal,
		Identifiers: []kb.Identifier{{ID: "0317-8471", Source: "ResourceIdentifier", Type: kb.IdentISSN, Subtype: kb.SubtypePrint}},
		Subjects:    []kb.Subject{{Type: "TLI", Name: "Testing"}}, Contributors: []kb.Contributor{},
		Resources: []kb.Resource{{TitleID: 7, PackageID: 2, PackageName: "P", VendorID: 3, VendorName: "V", IsSelected: true,
			Proxy: kb.ProxyRef{ID: "<n>", Inherited: true}, ManagedCoverage: []kb.Coverage{{Begin: "2001-01-01"}},
			ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}, URL: "http://x.example/?a=1&b=2",
			UserDefined: [5]string{"one", "", "\u2028"}}},
	}
	list := kb.TitleList{Total: 1, Titles: []kb.Title{title}}
	for _, tt := range []struct {
		name      string
		write     func(http.ResponseWriter) error
		reference any
	}{
		{"title", func(w http.ResponseWriter) error { return writeTitle(w, title, proxyMasks{}) }, toTitle(title, proxyMasks{})},
		{"list", func(w http.ResponseWriter) error { return writeTitleList(w, list, titleListForm) }, toTitleList(list, titleListForm)},
		{"package list", func(w http.ResponseWriter) error { return writeTitleList(w, list, packageTitleListForm) },
			toTitleList(list, packageTitleListForm)},
		{"empty list", func(w http.ResponseWriter) error {
			return writeTitleList(w, kb.TitleList{Titles: []kb.Title{}}, titleListForm)
		},
			toTitleList(kb.TitleList{Titles: []kb.Title{}}, titleListForm)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, want := httptest.NewRecorder(), httptest.NewRecorder()
			if err := tt.write(got); err != nil {
				t.Fatal(err)
			}
			if err := web.WriteJSON(want, http.StatusOK, tt.reference); err != nil {
				t.Fatal(err)
			}
			if got.Code != want.Code || !bytes.Equal(got.Body.Bytes(), want.Body.Bytes()) {
				t.Errorf("answer %d %s\nweb.WriteJSON: %d %s", got.Code, got.Body, want.Code, want.Body)
			}
			for _, h := range []string{"Content-Type", "X-Content-Type-Options"} {
				if got.Header().Get(h) != want.Header().Get(h) {
					t.Errorf("%s: %q, web.WriteJSON sets %q", h, got.Header().Get(h), want.Header().Get(h))
				}
			}
			if cl := got.Header().Get("Content-Length"); cl != strconv.Itoa(got.Body.Len()) {
				t.Errorf("Content-Length %q for a body of %d bytes", cl, got.Body.Len())
			}
		})
	}
}
