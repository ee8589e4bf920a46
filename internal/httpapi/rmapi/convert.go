package rmapi

import "github.com/kbserver/kbserver/internal/kb"

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
	return rootResponse{Proxy: proxyDetails{ID: s.ProxyID}, Labels: labels}
}

func toProxyList(ps []kb.Proxy) proxyListResponse {
	out := make([]proxyWithURL, len(ps))
	for i, p := range ps {
		out[i] = proxyWithURL{ID: p.ID, Name: p.Name, URLMask: p.URLMask}
	}
	return proxyListResponse{Proxies: out}
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

func toVisibility(v kb.Visibility) visibilityInfo {
	return visibilityInfo{IsHidden: v.Hidden, Reason: v.Reason}
}

func toCoverage(c kb.Coverage) coverageDates {
	return coverageDates{BeginCoverage: c.Begin, EndCoverage: c.End}
}

func toCoverageList(cs []kb.Coverage) []coverageDates {
	out := make([]coverageDates, len(cs))
	for i, c := range cs {
		out[i] = toCoverage(c)
	}
	return out
}

func toEmbargo(e kb.Embargo) embargoPeriod {
	if e.Unit == kb.EmbargoNone || e.Value == 0 {
		return embargoPeriod{}
	}
	return embargoPeriod{EmbargoUnit: nullable(e.Unit.String()), EmbargoValue: e.Value}
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
			VendorToken:      toToken(v.Token),
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
		Proxy:            toProxyInfo(v.Proxy),
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

func toTitle(t kb.Title) titleWire {
	ids := make([]identifierWire, len(t.Identifiers))
	for i, id := range t.Identifiers {
		ids[i] = identifierWire{ID: id.ID, Source: id.Source, Subtype: int(id.Subtype), Type: int(id.Type)}
	}
	subjects := make([]subjectWire, len(t.Subjects))
	for i, s := range t.Subjects {
		subjects[i] = subjectWire{Type: s.Type, Subject: s.Name}
	}
	contributors := make([]contributorWire, len(t.Contributors))
	for i, c := range t.Contributors {
		contributors[i] = contributorWire{Type: c.Type, Contributor: c.Name}
	}
	resources := make([]resourceWire, len(t.Resources))
	for i, r := range t.Resources {
		resources[i] = toResource(r)
	}
	return titleWire{
		TitleID:               t.ID,
		TitleName:             t.Name,
		PublisherName:         nullable(t.Publisher),
		IdentifiersList:       ids,
		SubjectsList:          subjects,
		IsTitleCustom:         t.IsCustom,
		PubType:               t.PubType.Display(),
		CustomerResourcesList: resources,
		Description:           nullable(t.Description),
		Edition:               nullable(t.Edition),
		IsPeerReviewed:        t.PeerReviewed,
		ContributorsList:      contributors,
	}
}

func toTitleList(l kb.TitleList) titleListResponse {
	out := make([]titleWire, len(l.Titles))
	for i, t := range l.Titles {
		out[i] = toTitle(t)
	}
	return titleListResponse{TotalResults: l.Total, Titles: out}
}

func toResource(r kb.Resource) resourceWire {
	return resourceWire{
		TitleID:              r.TitleID,
		PackageID:            r.PackageID,
		PackageName:          r.PackageName,
		PackageType:          r.PackageType.String(),
		Proxy:                toProxyInfo(r.Proxy),
		IsPackageCustom:      r.IsPackageCustom,
		VendorID:             r.VendorID,
		VendorName:           r.VendorName,
		LocationID:           0,
		IsSelected:           r.IsSelected,
		IsTokenNeeded:        r.IsTokenNeeded,
		VisibilityData:       toVisibility(r.Visibility),
		ManagedCoverageList:  toCoverageList(r.ManagedCoverage),
		CustomCoverageList:   toCoverageList(r.CustomCoverage),
		CoverageStatement:    nullable(r.CoverageStatement),
		ManagedEmbargoPeriod: toEmbargo(r.ManagedEmbargo),
		CustomEmbargoPeriod:  toEmbargo(r.CustomEmbargo),
		URL:                  nullable(r.URL),
		UserDefinedField1:    nullable(r.UserDefined[0]),
		UserDefinedField2:    nullable(r.UserDefined[1]),
		UserDefinedField3:    nullable(r.UserDefined[2]),
		UserDefinedField4:    nullable(r.UserDefined[3]),
		UserDefinedField5:    nullable(r.UserDefined[4]),
	}
}
