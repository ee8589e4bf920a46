package kb

import "context"

// ResourceLink is what a link-out needs of a resource in a customer's
// collection: its URL, the vendor and package tokens to substitute into it
// and the URL mask of its effective proxy ("" for none). TargetURL combines
// them into the address a patron is sent to.
type ResourceLink struct {
	URL          string
	VendorToken  *Token
	PackageToken *Token
	ProxyMask    string
}

// LinkStore backs the publication search service's link-outs.
type LinkStore interface {
	// LinkSecret returns the server's link-signing secret, creating it at
	// first use; every server over the same store shares it.
	LinkSecret(ctx context.Context) ([]byte, error)
	// ResourceLink returns the link of a resource in the customer's
	// collection (selected, neither it nor its package hidden, in a
	// package the customer may see); CodeNotFound otherwise. A token is
	// nil when the vendor or package has none; ProxyMask is "" when the
	// effective proxy is "no proxy" or names no proxy of the customer.
	ResourceLink(ctx context.Context, custID string, key ResourceKey) (ResourceLink, error)
	// CountLinkOut adds one to the resource's link-out count, records
	// the time of the link-out, and counts it in its month by where it
	// was made (via).
	CountLinkOut(ctx context.Context, custID string, key ResourceKey, via LinkVia) error
	// LinkOutCount returns the resource's link-out count, 0 when none.
	LinkOutCount(ctx context.Context, custID string, key ResourceKey) (int64, error)
}
