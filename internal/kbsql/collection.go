package kbsql

import "github.com/kbserver/kbserver/internal/kb"

// CollectionOnly keeps the selected, visible resources of the titles (in
// place), drops the titles left without any, and sets on the kept
// resources their vendor and package tokens and their notes, which tokens
// and notes read for all the kept resources at once.
func CollectionOnly(ts []kb.Title, tokens func([]kb.ResourceKey) (map[int64][2]*kb.Token, error),
	notes func([]kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error)) ([]kb.Title, error) {
	out, keys := collectionResources(ts)
	if len(keys) == 0 {
		return out, nil
	}
	tk, err := tokens(keys)
	if err != nil {
		return nil, err
	}
	ns, err := notes(keys)
	if err != nil {
		return nil, err
	}
	collectionDetails(out, tk, ns)
	return out, nil
}

// collectionResources keeps the selected, visible resources of the titles,
// in new slices (a title's resources may be shared with the store's kept
// titles, title_cache.go), and drops the titles left without any. It
// returns the kept titles and the keys of their resources.
func collectionResources(ts []kb.Title) ([]kb.Title, []kb.ResourceKey) {
	out := ts[:0]
	var keys []kb.ResourceKey
	for _, t := range ts {
		var kept []kb.Resource
		for _, r := range t.Resources {
			if r.IsSelected && !r.Visibility.Hidden {
				kept = append(kept, r)
				keys = append(keys, kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID})
			}
		}
		if len(kept) > 0 {
			t.Resources = kept
			out = append(out, t)
		}
	}
	return out, keys
}

// collectionDetails sets on every resource of ts its vendor and package
// tokens (tokens maps a package id to them) and its notes (an empty list
// where it has none, as the API shows a collection's resources).
func collectionDetails(ts []kb.Title, tokens map[int64][2]*kb.Token, notes map[kb.ResourceKey][]kb.Note) {
	for i := range ts {
		for j := range ts[i].Resources {
			r := &ts[i].Resources[j]
			tk := tokens[r.PackageID]
			r.VendorToken, r.PackageToken = tk[0], tk[1]
			r.Notes = notes[kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID}]
			if r.Notes == nil {
				r.Notes = []kb.Note{}
			}
		}
	}
}

// KeyPackages returns the distinct package ids of keys, in first-seen order.
func KeyPackages(keys []kb.ResourceKey) []int64 {
	seen := map[int64]bool{}
	var pkgs []int64
	for _, k := range keys {
		if !seen[k.PackageID] {
			seen[k.PackageID] = true
			pkgs = append(pkgs, k.PackageID)
		}
	}
	return pkgs
}

// TokenPair builds a resource's vendor and package tokens from the eight
// nullable columns vendor fact name, prompt, help text and customer value,
// then the same four of the package: a token is nil where its fact name is.
func TokenPair(f [8]*string) [2]*kb.Token {
	var pair [2]*kb.Token
	for i := range pair {
		g := f[i*4:]
		if g[0] != nil {
			pair[i] = &kb.Token{FactName: *g[0], Prompt: deref(g[1]), HelpText: deref(g[2]), Value: deref(g[3])}
		}
	}
	return pair
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
