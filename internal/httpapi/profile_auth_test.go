package httpapi_test

import (
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
)

// TestProfileAuth: every publication search route admits a request by its
// profile: with the profile's password, or without one on a guest
// profile. Everything else is 401 (malformed profile: 400), with no body.
// An admitted request reaches the route.
func TestProfileAuth(t *testing.T) {
	srv := newServer(t, httpapi.Deps{})
	for _, tc := range []struct {
		name, profile, password string
		want                    int    // 0: admitted (neither 400 nor 401)
		message                 string // part of X-Error-Message
	}{
		{"password", "lib.main.pf", "pf-pass", 0, ""},
		{"password again", "lib.main.pf", "pf-pass", 0, ""},
		{"wrong password", "lib.main.pf", "pf-pas", 401, "wrong password"},
		{"no password, no guest access", "lib.main.pf", "", 401, "password is required"},
		{"guest without password", "lib.main.guest", "", 0, ""},
		{"guest with its password", "lib.main.guest", "guest-pass", 0, ""},
		{"guest with a wrong password", "lib.main.guest", "nope", 401, "wrong password"},
		{"another profile's password", "lib.main.guest", "pf-pass", 401, "wrong password"},
		{"unknown profile", "lib.main.nobody", "pf-pass", 401, "unknown profile"},
		{"unknown profile without password", "lib.main.nobody", "", 401, "password is required"},
		{"unknown customer", "other.main.pf", "pf-pass", 401, "unknown profile"},
		{"two parts", "lib.main", "pf-pass", 400, "custid.groupid.profileid"},
		{"empty part", "lib..pf", "pf-pass", 400, "groupid is empty"},
		{"bad character", "lib.ma%20in.pf", "pf-pass", 400, "letters, digits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, route := range []string{"/publications?search=a", "/packages/1/titles/1", "/alphabrowser/menu/en-us?menuid=1"} {
				res, body := apitest.Do(t, srv.Client(), "GET", srv.URL+"/pf/pfaccount/"+tc.profile+route, nil, "password", tc.password)
				if tc.want == 0 {
					if res.StatusCode == 400 || res.StatusCode == 401 {
						t.Fatalf("%s: status %d (%s); want the request admitted", route, res.StatusCode, res.Header.Get("X-Error-Message"))
					}
					continue
				}
				if res.StatusCode != tc.want || len(body) != 0 {
					t.Fatalf("%s: status %d, body %q; want %d, no body", route, res.StatusCode, body, tc.want)
				}
				if msg := res.Header.Get("X-Error-Message"); !strings.Contains(msg, tc.message) {
					t.Errorf("%s: X-Error-Message %q, want it to contain %q", route, msg, tc.message)
				}
			}
		})
	}
}
