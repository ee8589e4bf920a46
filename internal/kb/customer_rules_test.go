package kb

import "testing"

func TestNewCustomer(t *testing.T) {
	id, name, err := NewCustomer(" acme ", "")
	if err != nil || id != "acme" || name != "acme" {
		t.Errorf("NewCustomer = %q, %q, %v", id, name, err)
	}
	if _, name, _ := NewCustomer("acme", "Acme Library"); name != "Acme Library" {
		t.Errorf("NewCustomer kept name %q", name)
	}
	for in, code := range map[string]Code{"": CodeMissing, "  ": CodeMissing, "a/b": CodeInvalid, "a b": CodeInvalid,
		"a.b": CodeInvalid, "a?b": CodeInvalid, "a#b": CodeInvalid, "a\x01b": CodeInvalid} {
		if _, _, err := NewCustomer(in, ""); ErrorCode(err) != code {
			t.Errorf("NewCustomer(%q): %v, want code %v", in, err, code)
		}
	}
}

func TestCheckNewProxy(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{{"EZP", true}, {"", false}, {NoProxyID, false}} {
		if err := CheckNewProxy(Proxy{ID: c.id}); (err == nil) != c.ok {
			t.Errorf("CheckNewProxy(%q) = %v", c.id, err)
		}
	}
}
