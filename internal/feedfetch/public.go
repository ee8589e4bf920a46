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
// file and connects to public addresses only, so that the address cannot
// reach the server's own machine or its private network (the loopback,
// private, link-local, shared and unspecified ranges, and multicast).

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
		if !IsPublic(ap.Addr()) {
			return fmt.Errorf("%s: %w", ap.Addr(), errNotPublic)
		}
		return nil
	}}
	t.DialContext = d.DialContext
	t.DialTLSContext = nil
	out.Transport = t
	return out
}

// sharedRange is the shared address space of carrier-grade NAT
// (RFC 6598), which netip does not call private.
var sharedRange = netip.MustParsePrefix("100.64.0.0/10")

// IsPublic reports whether a is an address of the public network.
func IsPublic(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() &&
		!a.IsUnspecified() && !a.IsMulticast() && !sharedRange.Contains(a)
}
