package kb

import (
	"context"
	"strconv"
)

// CustomerAt is what a request reads of its customer once, in one
// statement (with its API key when it has one): the customer's root proxy
// and the version counters that the answers kept by version and the
// search index depend on. The root proxy is the one of those versions.
type CustomerAt struct {
	// Root is the customer's root proxy id; "" when not read.
	Root string
	// KB is the knowledge base's version, which every import moves.
	KB int64
	// Titles is the version of what the search index holds: every
	// import moves it, and so does every write of a custom title's
	// fields or of a custom package's titles.
	Titles int64
	// Customer is the customer's version, which every write of the
	// customer's own data that an answer shows moves.
	Customer int64
}

// CollectionVersion returns the value of Store.CollectionVersion at a:
// it changes whenever the customer's collection, or any answer in the
// customer's context, may have.
func (a CustomerAt) CollectionVersion() string {
	return strconv.FormatInt(a.KB, 10) + "." + strconv.FormatInt(a.Customer, 10)
}

type customerAtKey struct{}

// WithCustomerAt returns a context that carries what was read of the
// request's customer with its API key (APIKey.At).
func WithCustomerAt(ctx context.Context, at CustomerAt) context.Context {
	return context.WithValue(ctx, customerAtKey{}, at)
}

// CustomerAtFrom returns what WithCustomerAt stored in ctx; ok is false
// when there is none (a request without a key: the reader reads it).
func CustomerAtFrom(ctx context.Context) (at CustomerAt, ok bool) {
	at, ok = ctx.Value(customerAtKey{}).(CustomerAt)
	return at, ok && at.Root != ""
}

// VersionFrom returns the CollectionVersion of the customer read with the
// request's API key; ok is false when there is none.
func VersionFrom(ctx context.Context) (version string, ok bool) {
	at, ok := CustomerAtFrom(ctx)
	if !ok {
		return "", false
	}
	return at.CollectionVersion(), true
}
