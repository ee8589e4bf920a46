package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// The operations that are not title searches.
const (
	opTitle        = "title/get"
	opVendors      = "vendors/list"
	opPackages     = "packages/list"
	opPackageTitle = "package-titles/list"
	opResourcePut  = "resource/put"
	opPublications = "pf/publications"
	opContacts     = "erm/contacts/list"
)

// searchTypes and searchFields are the title searches' types and fields,
// in the order of the API's enumerations.
var (
	searchTypes  = []kb.SearchType{kb.SearchAny, kb.SearchContains, kb.SearchExactMatch, kb.SearchBeginsWith, kb.SearchProximity, kb.SearchExactPhrase, kb.SearchAdvanced}
	searchFields = []kb.SearchField{kb.FieldTitleName, kb.FieldPublisher, kb.FieldISXN, kb.FieldSubject}
)

// searchName is the operation name of a title search, e.g.
// "titles/contains/titlename".
func searchName(t kb.SearchType, f kb.SearchField) string {
	return "titles/" + t.String() + "/" + f.String()
}

// operationNames lists every operation, in the order of the reports.
func operationNames() []string {
	var names []string
	for _, t := range searchTypes {
		for _, f := range searchFields {
			names = append(names, searchName(t, f))
		}
	}
	return append(names, opTitle, opVendors, opPackages, opPackageTitle, opResourcePut, opPublications, opContacts)
}

// operationHelp describes the operations for --help.
func operationHelp() string {
	return `  titles/TYPE/FIELD     GET titles?search=…&searchtype=TYPE&searchfield=FIELD, for
                        TYPE any, contains, exactmatch, beginswith, proximity,
                        exactphrase, advanced and FIELD titlename, publisher, isxn,
                        subject (28 operations); terms come from discovered titles
  title/get             GET titles/{id} of a discovered title
  vendors/list          GET vendors
  packages/list         GET packages (selection all or selected, at random)
  package-titles/list   GET vendors/{v}/packages/{p}/titles of a discovered package
  resource/put          PUT vendors/{v}/packages/{p}/titles/{id}: select or deselect
  pf/publications       GET /pf/pfaccount/{profile}/publications?search=…&includefacets=true
  erm/contacts/list     GET contact
`
}

// selectOperations returns the operations the --mix value names, in
// report order.
func selectOperations(mix string) ([]string, error) {
	all := operationNames()
	want := map[string]bool{}
	for _, part := range strings.Split(mix, ",") {
		part = strings.Trim(strings.TrimSpace(part), "/")
		if part == "" {
			continue
		}
		found := false
		for _, n := range all {
			if part == "all" || (part == "read" && n != opResourcePut) || n == part || strings.HasPrefix(n, part+"/") {
				want[n], found = true, true
			}
		}
		if !found {
			return nil, usageErrorf("--mix: unknown operation %q: use all, read, titles, titles/TYPE, titles/TYPE/FIELD or one of %s",
				part, strings.Join(all[len(searchTypes)*len(searchFields):], ", "))
		}
	}
	if len(want) == 0 {
		return nil, usageErrorf("--mix names no operation")
	}
	var names []string
	for _, n := range all {
		if want[n] {
			names = append(names, n)
		}
	}
	return names, nil
}

// operation is one kind of request of the mix.
type operation struct {
	name string
	// request builds one HTTP request with the terms and ids rng picks.
	request func(ctx context.Context, rng *rand.Rand) (*http.Request, error)
	// search, for a title search only, picks the query the HTTP handler
	// builds from the request: the store run runs it directly.
	search func(rng *rand.Rand) kb.TitleQuery
}

// rngFor returns the random source of operation name in client: the same
// for the HTTP and the store runs, so that both run the same queries.
func rngFor(seed int64, client int, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()^uint64(client)))
}

// buildOperations makes the operations names lists from the discovered
// data; it returns notes on those it skips for lack of data.
func buildOperations(names []string, d *kbData, o options) ([]operation, []string) {
	var ops []operation
	var notes []string
	get := func(ctx context.Context, u string, pfPassword bool) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		if pfPassword {
			if o.password != "" {
				req.Header.Set("password", o.password)
			}
		} else {
			req.Header.Set("x-api-key", o.key)
		}
		return req, nil
	}
	count := strconv.Itoa(o.count)
	titleWords := words(d.titleNames)
	var pkgs []packageRef
	for _, p := range d.packages {
		if p.TitleCount > 0 {
			pkgs = append(pkgs, p)
		}
	}
	for _, name := range names {
		op := operation{name: name}
		switch name {
		case opTitle:
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				return get(ctx, o.rmURL(fmt.Sprintf("titles/%d", pick(rng, d.titles))), false)
			}
		case opVendors:
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				return get(ctx, o.rmURL("vendors?count="+count), false)
			}
		case opPackages:
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				sel := "all"
				if rng.IntN(2) == 1 {
					sel = "selected"
				}
				return get(ctx, o.rmURL("packages?count="+count+"&selection="+sel), false)
			}
		case opPackageTitle:
			if len(pkgs) == 0 {
				notes = append(notes, name+" skipped: no package with titles")
				continue
			}
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				p := pick(rng, pkgs)
				return get(ctx, o.rmURL(fmt.Sprintf("vendors/%d/packages/%d/titles?count=%s", p.VendorID, p.PackageID, count)), false)
			}
		case opResourcePut:
			if len(d.resources) == 0 {
				notes = append(notes, name+" skipped: no title found in a package that is not Complete")
				continue
			}
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				// Put k sets resource k/2 to the opposite of its discovered
				// state when k is even and back when k is odd.
				k := d.puts.Add(1) - 1
				r := d.resources[(k/2)%int64(len(d.resources))]
				sel := r.selected != (k%2 == 0)
				path := fmt.Sprintf("vendors/%d/packages/%d/titles/%d", r.vendorID, r.packageID, r.titleID)
				req, err := http.NewRequestWithContext(ctx, http.MethodPut, o.rmURL(path),
					strings.NewReader(`{"isSelected":`+strconv.FormatBool(sel)+`}`))
				if err != nil {
					return nil, err
				}
				req.Header.Set("x-api-key", o.key)
				req.Header.Set("Content-Type", "application/json")
				return req, nil
			}
		case opPublications:
			if len(titleWords) == 0 {
				notes = append(notes, name+" skipped: no words in the titles found")
				continue
			}
			base := o.url + "/pf/pfaccount/" + url.PathEscape(o.profile) + "/publications?includefacets=true&count=" + count + "&search="
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				return get(ctx, base+url.QueryEscape(pick(rng, titleWords)), true)
			}
		case opContacts:
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				return get(ctx, o.rmURL("contact?count="+count), false)
			}
		default:
			t, f, ok := parseSearchName(name)
			if !ok {
				panic("kbbench: unknown operation " + name)
			}
			src := map[kb.SearchField][]string{kb.FieldTitleName: d.titleNames, kb.FieldPublisher: d.publishers,
				kb.FieldISXN: d.isxns, kb.FieldSubject: d.subjects}[f]
			if len(src) == 0 {
				notes = append(notes, fmt.Sprintf("%s skipped: no %s found in the titles discovered", name, f))
				continue
			}
			pageSize := o.count
			op.search = func(rng *rand.Rand) kb.TitleQuery {
				return kb.TitleQuery{Search: searchTerm(rng, t, f, src), Field: f, Type: t, Page: kb.Page{Count: pageSize, Number: 1}}
			}
			op.request = func(ctx context.Context, rng *rand.Rand) (*http.Request, error) {
				return get(ctx, o.rmURL(titleSearchPath(op.search(rng))), false)
			}
		}
		ops = append(ops, op)
	}
	return ops, notes
}

// titleSearchPath is the path, under the customer's /rm/rmaccounts, of
// the GET titles request of title search q.
func titleSearchPath(q kb.TitleQuery) string {
	v := url.Values{"search": {q.Search}, "searchfield": {q.Field.String()}, "searchtype": {q.Type.String()},
		"count": {strconv.Itoa(q.Page.Count)}}
	return "titles?" + v.Encode()
}

// parseSearchName reads the type and field of a title search's name.
func parseSearchName(name string) (kb.SearchType, kb.SearchField, bool) {
	for _, t := range searchTypes {
		for _, f := range searchFields {
			if searchName(t, f) == name {
				return t, f, true
			}
		}
	}
	return 0, 0, false
}

// searchTerm picks a search term of type t in field f from the field's
// discovered texts src (title names, publishers, subjects or ISSN/ISBNs):
//
//   - exactmatch: a whole text;
//   - beginswith: its first half of words (an ISSN/ISBN: its first half,
//     at least 4 characters: an ISBN's "978-" alone would match them all);
//   - contains: one of its words;
//   - any, proximity: two of its words;
//   - exactphrase: two consecutive words;
//   - advanced: "w1 OR w2".
//
// An ISSN/ISBN is searched whole for every type but beginswith.
func searchTerm(rng *rand.Rand, t kb.SearchType, f kb.SearchField, src []string) string {
	text := pick(rng, src)
	if f == kb.FieldISXN {
		if t == kb.SearchBeginsWith && len(text) > 4 {
			return text[:max(4, len(text)/2)]
		}
		return text
	}
	ws := splitWords(text)
	if len(ws) == 0 {
		return text
	}
	two := func() []string {
		if len(ws) == 1 {
			return ws
		}
		i, j := rng.IntN(len(ws)), rng.IntN(len(ws)-1)
		if j >= i {
			j++
		}
		return []string{ws[min(i, j)], ws[max(i, j)]}
	}
	switch t {
	case kb.SearchExactMatch:
		return text
	case kb.SearchBeginsWith:
		fs := strings.Fields(text)
		return strings.Join(fs[:max(1, len(fs)/2)], " ")
	case kb.SearchContains:
		return pick(rng, ws)
	case kb.SearchExactPhrase:
		if len(ws) == 1 {
			return ws[0]
		}
		i := rng.IntN(len(ws) - 1)
		return ws[i] + " " + ws[i+1]
	case kb.SearchAdvanced:
		return strings.Join(two(), " OR ")
	}
	return strings.Join(two(), " ") // any, proximity
}

// pick returns a random element of list, which is not empty.
func pick[T any](rng *rand.Rand, list []T) T {
	return list[rng.IntN(len(list))]
}

// searchOperations returns the title searches of ops.
func searchOperations(ops []operation) []operation {
	return slices.DeleteFunc(slices.Clone(ops), func(op operation) bool { return op.search == nil })
}
