package web

import (
	"net/http/httptest"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// query returns the query parameters of a GET with the query string raw.
func query(raw string) Query { return NewQuery(httptest.NewRequest("GET", "/?"+raw, nil)) }

// enumReader reads the enumeration parameter name with Enum, for the table
// of TestEnumParameters.
func enumReader[T ~int](name string, def T, parse func(name, value string) (T, error)) func(Query) (int, error) {
	return func(q Query) (int, error) {
		v, err := Enum(q, name, def, parse)
		return int(v), err
	}
}

func TestEnumParameters(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		read      func(Query) (int, error)
		want      int
		message   string // "": no error
	}{
		{"content type", "contenttype=EJournal", enumReader("contenttype", kb.ContentAll, ParseContentType), int(kb.ContentEJournal), ""},
		{"content type absent", "", enumReader("contenttype", kb.ContentAll, ParseContentType), int(kb.ContentAll), ""},
		{"bad content type", "contenttype=journal", enumReader("contenttype", kb.ContentAll, ParseContentType), 0, `Parameter contenttype has an invalid value "journal": allowed values are all, aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference (or 0-7).`},
		{"selection by number", "selection=2", enumReader("selection", kb.SelectionAll, ParseSelection), int(kb.SelectionNotSelected), ""},
		{"bad selection", "selection=4", enumReader("selection", kb.SelectionAll, ParseSelection), 0, `Parameter selection has an invalid value "4": allowed values are all, selected, notselected, orderedthroughoperator (or 0-3).`},
		{"resource type", "resourcetype=bookseries", enumReader("resourcetype", kb.ResourceAll, ParseResourceType), int(kb.ResourceBookSeries), ""},
		{"bad resource type", "resourcetype=podcast", enumReader("resourcetype", kb.ResourceAll, ParseResourceType), 0, `Parameter resourcetype has an invalid value "podcast": allowed values are all, journal, newsletter, report, proceedings, website, newspaper, unspecified, book, bookseries, database, thesisdissertation, streamingaudio, streamingvideo, audiobook (or 0-14).`},
		{"search field", "searchfield=isxn", enumReader("searchfield", kb.FieldTitleName, ParseSearchField), int(kb.FieldISXN), ""},
		{"bad search field", "searchfield=author", enumReader("searchfield", kb.FieldTitleName, ParseSearchField), 0, `Parameter searchfield has an invalid value "author": allowed values are titlename, publisher, isxn, subject (or 0-3).`},
		{"search type", "searchtype=ExactMatch", enumReader("searchtype", kb.SearchContains, ParseSearchType), int(kb.SearchExactMatch), ""},
		{"search type absent", "searchtype=", enumReader("searchtype", kb.SearchContains, ParseSearchType), int(kb.SearchContains), ""},
		{"bad search type", "searchtype=fuzzy", enumReader("searchtype", kb.SearchContains, ParseSearchType), 0, `Parameter searchtype has an invalid value "fuzzy": allowed values are any, contains, exactmatch, beginswith, proximity, exactphrase, advanced (or 0-6).`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.read(query(tc.raw))
			if tc.message == "" {
				if err != nil || got != tc.want {
					t.Errorf("got %d, %v; want %d", got, err, tc.want)
				}
				return
			}
			if kb.ErrorCode(err) != kb.CodeInvalid || kb.ErrorMessage(err) != tc.message {
				t.Errorf("error %v (code %d), want CodeInvalid %q", err, kb.ErrorCode(err), tc.message)
			}
		})
	}
}
