package web

import (
	"net/http"
	"strings"
)

// HTTPS reports whether the request came over TLS, directly or as a proxy
// in front says (the first value of X-Forwarded-Proto): the addresses the
// server writes for it are https, and its cookies Secure.
func HTTPS(r *http.Request) bool {
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return r.TLS != nil || strings.EqualFold(strings.TrimSpace(proto), "https")
}
