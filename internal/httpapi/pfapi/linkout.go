package pfapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// LinkOutPath starts the path of every link-out; the token follows it.
const LinkOutPath = "/pf/linkout/"

// LinkOutStore is what the link-out route needs of a store; kb.LinkStore
// has it.
type LinkOutStore interface {
	LinkSecret(ctx context.Context) ([]byte, error)
	ResourceLink(ctx context.Context, custID string, key kb.ResourceKey) (kb.ResourceLink, error)
	CountLinkOut(ctx context.Context, custID string, key kb.ResourceKey, via kb.LinkVia) error
}

// LinkOutRoute returns the route GET /pf/linkout/{token}, the target of the
// linkOutTargetUrl the service gives each resource (see LinkOutURL and
// kb.LinkSigner). A patron's browser follows it, so it is outside the
// profile path and asks for no password: the signed token is the
// credential, and it only ever leads to a resource of the collection it
// was made for.
//
// The route verifies the token, loads the resource's link, counts the
// link-out (not for HEAD, which link checkers and previews send) and
// answers 302 Found with no body, Location set to kb.TargetURL of the link
// and Cache-Control: no-store, so that the next click is counted too and
// a change of proxy or token takes effect at once. A malformed or tampered
// token, or a resource no longer in the collection, is 404 "Link not
// found"; a resource whose URL (tokens filled in) or proxied URL is not an
// absolute http or https URL is 404 too. Errors have no body and their
// message in the X-Error-Message header, as everywhere in the service.
//
// A link-out that cannot be counted still redirects: the count is
// statistics, the patron's article is not. The failure is returned after
// the answer has started, so the server logs it.
func LinkOutRoute(store LinkOutStore) web.Route {
	return web.Route{
		Pattern:      "GET " + LinkOutPath + "{token}",
		HeaderErrors: true,
		Handler: func(w http.ResponseWriter, r *http.Request) error {
			w.Header().Set("Cache-Control", "no-store")
			ctx := r.Context()
			secret, err := store.LinkSecret(ctx)
			if err != nil {
				return fmt.Errorf("link-out: %w", err)
			}
			if len(secret) < kb.MinLinkSecretLen {
				return fmt.Errorf("link-out: the store's link secret has %d bytes", len(secret))
			}
			custID, key, target, err := kb.NewLinkSigner(secret).VerifyLink(r.PathValue("token"))
			if err != nil {
				return err
			}
			link, err := store.ResourceLink(ctx, custID, key)
			if kb.ErrorCode(err) == kb.CodeNotFound {
				return &kb.Error{Code: kb.CodeNotFound, Message: "Link not found", Err: err}
			}
			if err != nil {
				return fmt.Errorf("link-out %d/%d: %w", key.PackageID, key.TitleID, err)
			}
			// An article-level link of the resolver leads to the DOI's
			// address, through the resource's proxy.
			direct := link
			direct.ProxyMask = ""
			to := kb.LinkTargetURL(link, target.DOI)
			if !webURL(kb.LinkTargetURL(direct, target.DOI)) || !webURL(to) {
				return kb.Errorf(kb.CodeNotFound, "The resource has no http or https URL to link to.")
			}
			var countErr error
			if r.Method != http.MethodHead {
				if err := store.CountLinkOut(ctx, custID, key, target.Via); err != nil {
					countErr = fmt.Errorf("link-out %d/%d: %w", key.PackageID, key.TitleID, err)
				}
			}
			w.Header().Set("Location", to)
			w.WriteHeader(http.StatusFound)
			return countErr
		},
	}
}

// webURL reports whether s is an absolute http or https URL with a host,
// the only kind of address a link-out redirects to: a resource URL like
// "www.example.com/x" would resolve against this server, and a
// "javascript:" one has no business in a Location header.
func webURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")
}

// LinkOutURL returns the absolute URL of the link-out with the token, on
// the host the request came to: https when the request came over TLS or a
// proxy in front says so (X-Forwarded-Proto, its first value), else http.
// A proxy in front must pass the Host header on.
func LinkOutURL(r *http.Request, token string) string {
	scheme := "http"
	if web.HTTPS(r) {
		scheme = "https"
	}
	return (&url.URL{Scheme: scheme, Host: r.Host, Path: LinkOutPath + token}).String()
}
