package kb

import "testing"

func TestBadEscape(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"a":"plain"}`, ""},
		{`{"a":"\u00e9 \n \\u0000 \" x"}`, ""}, // \\u0000 is a backslash and text
		{`{"a":"\ud83d\ude00"}`, ""},           // a surrogate pair
		{`{"a":"x\u0000y"}`, `\u0000`},         // NUL
		{`{"a":"\ud800"}`, `\ud800`},           // a lone high surrogate
		{`{"a":"\ud800\u0041"}`, `\ud800`},     // followed by no low one
		{`{"a":"\udc00"}`, `\udc00`},           // a lone low surrogate
		{`{"\u0000":1}`, `\u0000`},             // in a member name too
		{`{"a":["ok","\ude00"]}`, `\ude00`},    // inside an array
		{`{"a":"\\"}`, ""},                     // an escaped backslash ends the string
	} {
		if _, got := BadEscape([]byte(c.body)); got != c.want {
			t.Errorf("BadEscape(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}
