package kb

import (
	"strings"
	"testing"
)

func TestNoteValidate(t *testing.T) {
	ok := Note{PackageID: 1, TitleID: 2, Text: "Ask at the desk."}
	with := func(f func(n *Note)) Note {
		n := ok
		f(&n)
		return n
	}
	for _, tc := range []struct {
		name string
		note Note
		code Code     // 0: valid
		want []string // parts of the message
	}{
		{"minimal", ok, 0, nil},
		{"all fields", Note{Text: "Campus only.", Name: "Access", Rank: 1000, IconURL: "https://lib.example/i.png", IconID: 3,
			AltText: "i", HoverText: "h", LinkURL: "HTTP://lib.example/help?x=1#y", ShowOn: []string{"pf", "a-z list"}}, 0, nil},
		{"text of exactly the limit in multi-byte characters", with(func(n *Note) { n.Text = strings.Repeat("é", MaxNoteText) }), 0, nil},
		{"name of exactly the limit", with(func(n *Note) { n.Name = strings.Repeat("n", MaxNoteName) }), 0, nil},
		{"ten show-on flags", with(func(n *Note) { n.ShowOn = strings.Split("a,b,c,d,e,f,g,h,i,j", ",") }), 0, nil},
		{"empty show-on list", with(func(n *Note) { n.ShowOn = []string{} }), 0, nil},

		{"no text", with(func(n *Note) { n.Text = "" }), CodeMissing, []string{"Note text (noteText, --text) is required"}},
		{"blank text", with(func(n *Note) { n.Text = " \n\t " }), CodeMissing, []string{"--text", "required"}},
		{"text too long", with(func(n *Note) { n.Text = strings.Repeat("é", MaxNoteText+1) }), CodeInvalid,
			[]string{"Note text (noteText, --text) is 4001 characters long: at most 4000"}},
		{"name too long", with(func(n *Note) { n.Name = strings.Repeat("n", MaxNoteName+1) }), CodeInvalid,
			[]string{"Note name (noteName, --name) is 201 characters long: at most 200"}},
		{"negative rank", with(func(n *Note) { n.Rank = -1 }), CodeInvalid, []string{"rank (rank, --rank)", "from 0 to 1000, not -1"}},
		{"rank too high", with(func(n *Note) { n.Rank = 1001 }), CodeInvalid, []string{"--rank", "not 1001"}},
		{"relative icon URL", with(func(n *Note) { n.IconURL = "/icons/i.png" }), CodeInvalid,
			[]string{`icon URL (iconUrl, --icon) "/icons/i.png" must be an absolute http or https URL`}},
		{"ftp icon URL", with(func(n *Note) { n.IconURL = "ftp://lib.example/i.png" }), CodeInvalid, []string{"--icon", "http or https"}},
		{"icon URL without host", with(func(n *Note) { n.IconURL = "https:///i.png" }), CodeInvalid, []string{"--icon"}},
		{"icon URL with only a port", with(func(n *Note) { n.IconURL = "https://:443/i.png" }), CodeInvalid, []string{"--icon"}},
		{"negative icon id", with(func(n *Note) { n.IconID = -2 }), CodeInvalid, []string{"icon id (iconId, --icon-id) must be 0 or more, not -2"}},
		{"link without scheme", with(func(n *Note) { n.LinkURL = "lib.example/help" }), CodeInvalid,
			[]string{`link URL (linkUrl, --link) "lib.example/help"`, "absolute http or https"}},
		{"mailto link", with(func(n *Note) { n.LinkURL = "mailto:desk@lib.example" }), CodeInvalid, []string{"--link"}},
		{"link with a space", with(func(n *Note) { n.LinkURL = "https://lib.example/a help" }), CodeInvalid, []string{"--link"}},
		{"malformed link", with(func(n *Note) { n.LinkURL = "https://lib.example/%zz" }), CodeInvalid, []string{"--link"}},
		{"eleven show-on flags", with(func(n *Note) { n.ShowOn = strings.Split("a,b,c,d,e,f,g,h,i,j,k", ",") }), CodeInvalid,
			[]string{"show-on flags (showOnFlags, --show-on) number 11: at most 10"}},
		{"empty show-on flag", with(func(n *Note) { n.ShowOn = []string{"pf", " "} }), CodeInvalid,
			[]string{"show-on flag 2 of 2 (showOnFlags, --show-on) is empty"}},
		{"show-on flag with a comma", with(func(n *Note) { n.ShowOn = []string{"pf,az"} }), CodeInvalid,
			[]string{`show-on flag "pf,az" (showOnFlags, --show-on) contains a comma`}},
		{"first problem wins", Note{Text: "", Rank: -1}, CodeMissing, []string{"--text"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.note.Validate()
			if got := ErrorCode(err); got != tc.code {
				t.Fatalf("Validate() = %v (code %d), want code %d", err, got, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(ErrorMessage(err), w) {
					t.Errorf("message %q lacks %q", ErrorMessage(err), w)
				}
			}
		})
	}
}
