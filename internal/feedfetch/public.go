package feedfetch

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
)

// A library's own holdings feed names an address the library chose, which
// the server fetches: with Limits.PublicOnly the fetch reads no local
// file, uses no proxy, and connects to public addresses only (IsPublic),
// nor to the addresses of the server's own network interfaces, so that
// the address cannot reach the server's own machine or its private
// network. The check is made on each address dialled, after name
// resolution and at every redirect; any port may be dialled.

// errNotPublic refuses a connection to an address that is not public.
var errNotPublic = errors.New("the address is not on the public network")

// publicOnly returns a client like c (nil: the default client) whose
// connections, the redirects' included, go to public addresses only. The
// check is made on the address dialled, after name resolution, so that a
// name that resolves to a private address is refused too.
func publicOnly(c *http.Client) *http.Client {
	out := &http.Client{}
	if c != nil {
		*out = *c
	}
	base, ok := out.Transport.(*http.Transport)
	if !ok || base == nil {
		base = http.DefaultTransport.(*http.Transport)
	}
	t := base.Clone()
	t.Proxy = nil // a proxy would dial on the server's behalf
	d := &net.Dialer{Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%s: %w", address, errNotPublic)
		}
		if !IsPublic(ap.Addr()) || isOwnAddress(ap.Addr()) {
			return fmt.Errorf("%s: %w", ap.Addr(), errNotPublic)
		}
		return nil
	}}
	t.DialContext = d.DialContext
	// The deprecated Dial and DialTLS would bypass the check.
	t.DialTLSContext, t.Dial, t.DialTLS = nil, nil, nil
	out.Transport = t
	return out
}

// notPublic are the ranges of the IANA special-purpose address registries
// (RFC 6890 and its updates) that are not the public network, beyond
// those netip names (private, loopback, link-local, multicast,
// unspecified), and the IPv6 ranges that embed an IPv4 address (NAT64,
// 6to4, Teredo, IPv4-compatible), which could reach a private one.
var notPublic = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "240.0.0.0/4",
		"::/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "2002::/16", "fec0::/10",
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// IsPublic reports whether a is an address of the public network: a
// global unicast address in none of the special-purpose ranges.
func IsPublic(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() ||
		a.IsUnspecified() || a.IsMulticast() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// isOwnAddress reports whether a is an address of one of this machine's
// network interfaces (a public address of the server itself).
func isOwnAddress(a netip.Addr) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true // unknown: refused
	}
	a = a.Unmap()
	for _, ad := range addrs {
		if n, ok := ad.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok && ip.Unmap() == a {
				return true
			}
		}
	}
	return false
}
