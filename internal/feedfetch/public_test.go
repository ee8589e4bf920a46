package feedfetch

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestIsPublic(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"93.184.215.14", true},
		{"2606:2800:21f:cb07:6820:80da:af6b:8b2c", true},
		{"8.8.8.8", true},
		{"127.0.0.1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"100.64.0.1", false},      // shared (carrier-grade NAT)
		{"0.1.2.3", false},
		{"192.0.0.8", false},
		{"198.18.0.1", false},
		{"240.0.0.1", false},
		{"255.255.255.255", false},
		{"224.0.0.1", false},
		{"::1", false},
		{"::", false},
		{"fe80::1", false},
		{"fc00::1", false},
		{"fec0::1", false},
		{"::ffff:127.0.0.1", false},    // IPv4-mapped loopback
		{"::ffff:93.184.215.14", true}, // IPv4-mapped public
		{"::127.0.0.1", false},         // IPv4-compatible
		{"64:ff9b::7f00:1", false},     // NAT64 of 127.0.0.1
		{"2002:7f00:1::1", false},      // 6to4 of 127.0.0.1
		{"2001::1", false},             // Teredo
		{"2001:db8::1", false},         // documentation
	} {
		if got := IsPublic(netip.MustParseAddr(c.addr)); got != c.want {
			t.Errorf("IsPublic(%s) = %v, want %v", c.addr, got, c.want)
		}
	}
}

// TestPublicOnly: with PublicOnly a local file and the loopback address
// are refused, the latter also when a redirect names it.
func TestPublicOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	defer srv.Close()
	_, err := Fetch(t.Context(), srv.Client(), feedOf(srv.URL+"/f"), Previous{}, Limits{PublicOnly: true})
	wantKind(t, err, KindAddress, 0)
	if !strings.Contains(err.Error(), "public network") {
		t.Errorf("%v: want the reason named", err)
	}
	_, err = Fetch(t.Context(), nil, kb.Feed{URL: "file:///etc/hostname"}, Previous{}, Limits{PublicOnly: true})
	wantKind(t, err, KindAddress, 0)
}

// TestRedirectDropsHeaders: the feed's headers go to its own host only,
// not to another host a redirect names.
func TestRedirectDropsHeaders(t *testing.T) {
	got := make(chan string, 2)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- "other:" + r.Header.Get("X-Token")
		w.Write([]byte("publication_title\n"))
	}))
	defer other.Close()
	// The same server under another name: localhost, not 127.0.0.1.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- "first:" + r.Header.Get("X-Token")
		http.Redirect(w, r, otherURL+"/f", http.StatusFound)
	}))
	defer first.Close()
	f := kb.Feed{URL: first.URL + "/f", Headers: []kb.FeedHeader{{Name: "X-Token", Value: "sesame"}}}
	r, err := Fetch(t.Context(), nil, f, Previous{}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if a, b := <-got, <-got; a != "first:sesame" || b != "other:" {
		t.Errorf("headers seen: %q, %q; want the token at the first host only", a, b)
	}
}
