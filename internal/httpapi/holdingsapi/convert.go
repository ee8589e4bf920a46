package holdingsapi

import (
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file maps kb types to wire types. Lists are never nil, so that they
// encode as [] rather than null.

// nullable returns nil for an empty string, so that it encodes as null.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toRoot(s kb.RootSettings) rootResponse {
	labels := make([]labelWire, len(s.Labels))
	for i, l := range s.Labels {
		labels[i] = labelWire{
			ID:                         l.ID,
			DisplayLabel:               l.DisplayLabel,
			DisplayOnFullTextFinder:    l.DisplayOnFullTextFinder,
			DisplayOnPublicationFinder: l.DisplayOnPublicationFinder,
		}
	}
	var vendorID *string
	if s.VendorID != 0 {
		vendorID = nullable(strconv.FormatInt(s.VendorID, 10))
	}
	return rootResponse{Proxy: proxyDetails{ID: s.ProxyID}, VendorID: vendorID, FtfTokens: []customerToken{}, Labels: labels}
}

// toProxyList converts the customer's proxies to the list that GET proxies
// answers; the wire decides how it is wrapped (web.Wire.List).
func toProxyList(ps []kb.Proxy) []proxyWithURL {
	out := make([]proxyWithURL, len(ps))
	for i, p := range ps {
		out[i] = proxyWithURL{ID: p.ID, Name: p.Name, URLMask: p.URLMask}
	}
	return out
}

// proxyMasks maps proxy ids to their URL masks, for proxiedUrl.
type proxyMasks map[string]string

// newProxyMasks indexes the customer's proxies.
func newProxyMasks(ps []kb.Proxy) proxyMasks {
	m := make(proxyMasks, len(ps))
	for _, p := range ps {
		m[p.ID] = p.URLMask
	}
	return m
}

// proxied returns the proxy of an object with the address it makes of
// url (kb.TargetURL without tokens): null for no URL.
func (m proxyMasks) proxied(p kb.ProxyRef, url string) proxiedInfo {
	out := proxiedInfo{ID: p.ID, Inherited: p.Inherited}
	if url != "" {
		u := kb.TargetURL(kb.ResourceLink{URL: url, ProxyMask: m[p.ID]})
		out.ProxiedURL = &u
	}
	return out
}

func toProxyInfo(p kb.ProxyRef) proxyInfo {
	return proxyInfo{ID: p.ID, Inherited: p.Inherited}
}

func toToken(t *kb.Token) *tokenInfo {
	if t == nil {
		return nil
	}
	return &tokenInfo{FactName: t.FactName, Prompt: t.Prompt, HelpText: t.HelpText, Value: nullable(t.Value)}
}

// tokenName is a token as the vendor list carries it: its fact name, or
// null for no token.
func tokenName(t *kb.Token) *string {
	if t == nil {
		return nil
	}
	return &t.FactName
}

func toVisibility(v kb.Visibility) visibilityInfo {
	return visibilityInfo{IsHidden: v.Hidden, Reason: v.Reason}
}

func toCoverage(c kb.Coverage) coverageDates {
	return coverageDates{BeginCoverage: c.Begin, EndCoverage: c.End}
}

func toVendorList(l kb.VendorList) vendorListResponse {
	out := make([]vendorListItem, len(l.Vendors))
	for i, v := range l.Vendors {
		out[i] = vendorListItem{
			VendorID:         v.ID,
			VendorName:       v.Name,
			IsCustomer:       v.IsCustomer,
			PackagesTotal:    v.PackagesTotal,
			PackagesSelected: v.PackagesSelected,
			VendorToken:      tokenName(v.Token),
		}
	}
	return vendorListResponse{TotalResults: l.Total, Vendors: out}
}

func toVendorDetail(v kb.Vendor) vendorDetail {
	return vendorDetail{
		VendorID:         v.ID,
		VendorName:       v.Name,
		IsCustomer:       v.IsCustomer,
		PackagesTotal:    v.PackagesTotal,
		PackagesSelected: v.PackagesSelected,
		Proxy:            proxyMasks(nil).proxied(v.Proxy, ""),
		VendorToken:      toToken(v.Token),
	}
}

func toPackageListItem(p kb.Package) packageListItem {
	return packageListItem{
		PackageID:      p.ID,
		PackageName:    p.Name,
		IsCustom:       p.IsCustom,
		VendorID:       p.VendorID,
		VendorName:     p.VendorName,
		TitleCount:     p.TitleCount,
		IsSelected:     p.IsSelected,
		VisibilityData: toVisibility(p.Visibility),
		SelectedCount:  p.SelectedCount,
		IsTokenNeeded:  p.IsTokenNeeded,
		ContentType:    p.ContentType.Display(),
		CustomCoverage: toCoverage(p.CustomCoverage),
		PackageType:    p.PackageType.String(),
	}
}

func toPackageList(l kb.PackageList) packageListResponse {
	out := make([]packageListItem, len(l.Packages))
	for i, p := range l.Packages {
		out[i] = toPackageListItem(p)
	}
	return packageListResponse{TotalResults: l.Total, PackagesList: out}
}

func toPackageDetail(p kb.Package) packageDetail {
	return packageDetail{
		PackageID:                p.ID,
		PackageName:              p.Name,
		IsCustom:                 p.IsCustom,
		VendorID:                 p.VendorID,
		VendorName:               p.VendorName,
		TitleCount:               p.TitleCount,
		IsSelected:               p.IsSelected,
		VisibilityData:           toVisibility(p.Visibility),
		SelectedCount:            p.SelectedCount,
		IsTokenNeeded:            p.IsTokenNeeded,
		ContentType:              p.ContentType.Display(),
		CustomCoverage:           toCoverage(p.CustomCoverage),
		Proxy:                    toProxyInfo(p.Proxy),
		AllowOperatorToAddTitles: p.AllowOperatorToAddTitles,
		PackageToken:             toToken(p.Token),
		PackageType:              p.PackageType.String(),
	}
}

// toTitle converts one title with its resources, their proxies with
// the addresses masks make of their URLs.
func toTitle(t kb.Title, masks proxyMasks) titleWire {
	a := wireAlloc{masks: masks}
	a.reserve(t)
	return a.title(t)
}

// Title list forms: the title list carries contributors, a package's
// title list alternate titles (titleListItem).
const (
	titleListForm = iota
	packageTitleListForm
)

// toTitleList converts a page of titles in the given form.
func toTitleList(l kb.TitleList, form int) titleListResponse {
	var a wireAlloc
	a.reserve(l.Titles...)
	out := make([]titleListItem, len(l.Titles))
	for i, t := range l.Titles {
		d := a.title(t)
		if form == titleListForm {
			for j := range d.SubjectsList {
				d.SubjectsList[j].Name = &d.SubjectsList[j].Subject
			}
		}
		out[i] = titleListItem{
			TitleID:               d.TitleID,
			TitleName:             d.TitleName,
			PublisherName:         d.PublisherName,
			IdentifiersList:       d.IdentifiersList,
			SubjectsList:          d.SubjectsList,
			IsTitleCustom:         d.IsTitleCustom,
			PubType:               d.PubType,
			CustomerResourcesList: d.CustomerResourcesList,
		}
		if form == packageTitleListForm {
			out[i].AlternateTitleList = &d.AlternateTitleList
		} else {
			out[i].ContributorsList = &d.ContributorsList
		}
	}
	return titleListResponse{TotalResults: l.Total, Titles: out}
}

// wireAlloc hands out the lists and the nullable strings of the wire titles
// of one answer from a few shared arrays rather than one allocation each: a
// page of 100 titles has about 2,000 of them. Resources get their proxies
// only with masks (details); list items carry none.
type wireAlloc struct {
	masks        proxyMasks
	strs         []string
	ids          []identifierWire
	subjects     []subjectListWire
	contributors []contributorWire
	resources    []resourceWire
	coverage     []coverageDates
}

// reserve allocates the arrays for the titles ts at once.
func (a *wireAlloc) reserve(ts ...kb.Title) {
	var strs, ids, subjects, contributors, resources, coverage int
	for i := range ts {
		t := &ts[i]
		strs += nonEmpty(t.Publisher, t.Description, t.Edition)
		ids += len(t.Identifiers)
		subjects += len(t.Subjects)
		contributors += len(t.Contributors)
		resources += len(t.Resources)
		for j := range t.Resources {
			r := &t.Resources[j]
			strs += nonEmpty(r.CoverageStatement, r.URL) + nonEmpty(r.UserDefined[:]...) +
				embargoUnits(r.ManagedEmbargo) + embargoUnits(r.CustomEmbargo)
			coverage += len(r.ManagedCoverage) + len(r.CustomCoverage)
		}
	}
	a.strs = make([]string, 0, strs)
	a.ids = make([]identifierWire, 0, ids)
	a.subjects = make([]subjectListWire, 0, subjects)
	a.contributors = make([]contributorWire, 0, contributors)
	a.resources = make([]resourceWire, 0, resources)
	a.coverage = make([]coverageDates, 0, coverage)
}

// nonEmpty counts the strings that are not empty.
func nonEmpty(ss ...string) int {
	n := 0
	for _, s := range ss {
		if s != "" {
			n++
		}
	}
	return n
}

// embargoUnits is the number of nullable strings embargo takes: its unit,
// when it has one.
func embargoUnits(e kb.Embargo) int {
	if e.Unit == kb.EmbargoNone || e.Value == 0 {
		return 0
	}
	return 1
}

// take returns the next n elements of *pool, a non-nil slice whose
// capacity ends at its length so that appending to it cannot overwrite
// its neighbours. *pool is replaced by a new array of at least 64 elements
// when it has too few left (never after reserve).
func take[T any](pool *[]T, n int) []T {
	l := len(*pool)
	if *pool == nil || cap(*pool)-l < n {
		*pool, l = make([]T, 0, max(n, 64)), 0
	}
	*pool = (*pool)[:l+n]
	return (*pool)[l : l+n : l+n]
}

// nullable returns nil for an empty string, so that it encodes as null.
func (a *wireAlloc) nullable(s string) *string {
	if s == "" {
		return nil
	}
	p := take(&a.strs, 1)
	p[0] = s
	return &p[0]
}

func (a *wireAlloc) title(t kb.Title) titleWire {
	ids := take(&a.ids, len(t.Identifiers))
	for i, id := range t.Identifiers {
		ids[i] = identifierWire{ID: id.ID, Source: id.Source, Subtype: int(id.Subtype), Type: int(id.Type)}
	}
	subjects := take(&a.subjects, len(t.Subjects))
	for i, s := range t.Subjects {
		subjects[i] = subjectListWire{Type: s.Type, Subject: s.Name}
	}
	contributors := take(&a.contributors, len(t.Contributors))
	for i, c := range t.Contributors {
		contributors[i] = contributorWire{Type: c.Type, Contributor: c.Name}
	}
	resources := take(&a.resources, len(t.Resources))
	for i, r := range t.Resources {
		resources[i] = a.resource(r)
	}
	return titleWire{
		TitleID:               t.ID,
		TitleName:             t.Name,
		PublisherName:         a.nullable(t.Publisher),
		IdentifiersList:       ids,
		SubjectsList:          subjects,
		IsTitleCustom:         t.IsCustom,
		PubType:               t.PubType.Display(),
		CustomerResourcesList: resources,
		Description:           a.nullable(t.Description),
		Edition:               a.nullable(t.Edition),
		IsPeerReviewed:        t.PeerReviewed,
		ContributorsList:      contributors,
		AlternateTitleList:    []alternateTitleWire{},
	}
}

func (a *wireAlloc) coverageList(cs []kb.Coverage) []coverageDates {
	out := take(&a.coverage, len(cs))
	for i, c := range cs {
		out[i] = toCoverage(c)
	}
	return out
}

func (a *wireAlloc) embargo(e kb.Embargo) embargoPeriod {
	if embargoUnits(e) == 0 {
		return embargoPeriod{}
	}
	return embargoPeriod{EmbargoUnit: a.nullable(e.Unit.String()), EmbargoValue: e.Value}
}

// proxy returns a resource's proxy with its proxied URL, or nil for a
// list item (no masks).
func (a *wireAlloc) proxy(r kb.Resource) *proxiedInfo {
	if a.masks == nil {
		return nil
	}
	p := a.masks.proxied(r.Proxy, r.URL)
	return &p
}

func (a *wireAlloc) resource(r kb.Resource) resourceWire {
	return resourceWire{
		TitleID:              r.TitleID,
		PackageID:            r.PackageID,
		PackageName:          r.PackageName,
		PackageType:          r.PackageType.String(),
		Proxy:                a.proxy(r),
		IsPackageCustom:      r.IsPackageCustom,
		VendorID:             r.VendorID,
		VendorName:           r.VendorName,
		LocationID:           0,
		IsSelected:           r.IsSelected,
		IsTokenNeeded:        r.IsTokenNeeded,
		VisibilityData:       toVisibility(r.Visibility),
		ManagedCoverageList:  a.coverageList(r.ManagedCoverage),
		CustomCoverageList:   a.coverageList(r.CustomCoverage),
		CoverageStatement:    a.nullable(r.CoverageStatement),
		ManagedEmbargoPeriod: a.embargo(r.ManagedEmbargo),
		CustomEmbargoPeriod:  a.embargo(r.CustomEmbargo),
		URL:                  a.nullable(r.URL),
		UserDefinedField1:    a.nullable(r.UserDefined[0]),
		UserDefinedField2:    a.nullable(r.UserDefined[1]),
		UserDefinedField3:    a.nullable(r.UserDefined[2]),
		UserDefinedField4:    a.nullable(r.UserDefined[3]),
		UserDefinedField5:    a.nullable(r.UserDefined[4]),
	}
}
