package kb

import "context"

type versionKey struct{}

// WithVersion returns a context that carries the CollectionVersion of the
// request's customer, read with its API key (APIKey.Version).
func WithVersion(ctx context.Context, version string) context.Context {
	return context.WithValue(ctx, versionKey{}, version)
}

// VersionFrom returns the version WithVersion stored in ctx; ok is false
// when there is none.
func VersionFrom(ctx context.Context) (version string, ok bool) {
	version, ok = ctx.Value(versionKey{}).(string)
	return version, ok && version != ""
}
