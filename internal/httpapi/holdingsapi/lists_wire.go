package holdingsapi

import "github.com/kbserver/kbserver/internal/kb"

// The wire types of the hosted service's v2 package operations
// (/rm/rmaccounts/v2/{custid}/lists), which clients of the hosted service
// read packages through: a package is addressed by its id alone, its id is
// listId, its visibility is one entry per place it is shown in, and lists
// carry facets. Keys the model has no value for are written as the rules
// of kb/package_lists.go say (flags), as null (texts) or as empty arrays
// (lists), never left out.

// listPackagesResponse is a page of packages of the v2 lists.
type listPackagesResponse struct {
	TotalResults int           `json:"totalResults"`
	PackagesList []packageData `json:"packagesList"`
	Facets       listFacets    `json:"facets"`
}

// listFacets counts the matching packages by package and by subject.
// kbserver keeps no subjects of packages, and a package list counted by
// package is the list itself, so both are empty arrays.
type listFacets struct {
	Packages []packageFacet `json:"packages"`
	Subjects []subjectFacet `json:"subjects"`
}

// packageFacet is a package and the number of matches in it.
type packageFacet struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// subjectFacet is a subject heading and the number of matches with it.
type subjectFacet struct {
	ID       int64  `json:"id"`
	ParentID int64  `json:"parentId"`
	Schema   string `json:"schema"`
	Name     string `json:"name"`
	Count    int    `json:"count"`
}

// categoryVisibility says whether a package is hidden in one place: PF
// (publication finder), FTF (full text finder) or MARC (MARC records).
type categoryVisibility struct {
	Category string `json:"category"`
	Hidden   bool   `json:"hidden"`
	Reason   string `json:"reason"`
}

// altName is an alternative name of a package.
type altName struct {
	ID      int64  `json:"id"`
	AltName string `json:"altName"`
}

// subjectAssociation is a subject heading given to a package.
type subjectAssociation struct {
	ID                 int64  `json:"id"`
	SchemaID           int64  `json:"schemaId"`
	Name               string `json:"name"`
	IsCustom           bool   `json:"isCustom"`
	ExplicitAssignment bool   `json:"explicitAssignment"`
	SubjectHierarchy   string `json:"subjectHierarchy"`
}

// packageData is a package of the v2 operations, in a list and alone.
type packageData struct {
	ListID                   int64                `json:"listId"`
	PackageName              string               `json:"packageName"`
	VendorID                 int64                `json:"vendorId"`
	VendorName               string               `json:"vendorName"`
	IsCustom                 bool                 `json:"isCustom"`
	ContentType              string               `json:"contentType"`
	PackageType              string               `json:"packageType"`
	TitleCount               int                  `json:"titleCount"`
	SelectedCount            int                  `json:"selectedCount"`
	IsSelected               bool                 `json:"isSelected"`
	IsTokenNeeded            bool                 `json:"isTokenNeeded"`
	Visibility               []categoryVisibility `json:"visibility"`
	CustomCoverage           coverageDates        `json:"customCoverage"`
	Proxy                    proxyInfo            `json:"proxy"`
	PackageToken             *tokenInfo           `json:"packageToken"`
	AllowOperatorToAddTitles bool                 `json:"allowOperatorToAddTitles"`
	IsOrderedThroughOperator bool                 `json:"isOrderedThroughOperator"`
	// AllowEbscoToAddTitles and IsOrderedThroughEbsco repeat the two flags
	// under the hosted service's names on the hosted wire only
	// (web.Wire.HostedNames), for clients that read only those.
	AllowEbscoToAddTitles *bool                `json:"allowEbscoToAddTitles,omitempty"`
	IsOrderedThroughEbsco *bool                `json:"isOrderedThroughEbsco,omitempty"`
	AvailableForSelection bool                 `json:"availableForSelection"`
	IsPrimaryPackage      bool                 `json:"isPrimaryPackage"`
	PackageFreeAccess     bool                 `json:"packageFreeAccess"`
	CustomDisplayName     *string              `json:"customDisplayName"`
	ManagedDescription    *string              `json:"managedDescription"`
	CustomDescription     *string              `json:"customDescription"`
	URL                   *string              `json:"url"`
	ManagedAltNames       []altName            `json:"managedAltNames"`
	CustomAltNames        []altName            `json:"customAltNames"`
	SubjectAssociations   []subjectAssociation `json:"subjectAssociations"`
}

// toPackageData converts a package for the v2 operations. The one hidden
// flag of kbserver is written for each of the three places; hostedNames
// adds the operator flags under the hosted service's names.
func toPackageData(p kb.Package, hostedNames bool) packageData {
	cats := kb.VisibilityCategories()
	vis := make([]categoryVisibility, len(cats))
	for i, c := range cats {
		vis[i] = categoryVisibility{Category: c, Hidden: p.Visibility.Hidden, Reason: p.Visibility.Reason}
	}
	d := packageData{
		ListID:                   p.ID,
		PackageName:              p.Name,
		VendorID:                 p.VendorID,
		VendorName:               p.VendorName,
		IsCustom:                 p.IsCustom,
		ContentType:              p.ContentType.Display(),
		PackageType:              p.PackageType.String(),
		TitleCount:               p.TitleCount,
		SelectedCount:            p.SelectedCount,
		IsSelected:               p.IsSelected,
		IsTokenNeeded:            p.IsTokenNeeded,
		Visibility:               vis,
		CustomCoverage:           toCoverage(p.CustomCoverage),
		Proxy:                    toProxyInfo(p.Proxy),
		PackageToken:             toToken(p.Token),
		AllowOperatorToAddTitles: p.AllowOperatorToAddTitles,
		IsOrderedThroughOperator: kb.PackageOrderedThroughOperator,
		AvailableForSelection:    kb.PackageAvailableForSelection,
		IsPrimaryPackage:         kb.PackageIsPrimary,
		PackageFreeAccess:        kb.PackageFreeAccess,
		ManagedAltNames:          []altName{},
		CustomAltNames:           []altName{},
		SubjectAssociations:      []subjectAssociation{},
	}
	if hostedNames {
		d.AllowEbscoToAddTitles, d.IsOrderedThroughEbsco = &d.AllowOperatorToAddTitles, &d.IsOrderedThroughOperator
	}
	return d
}

// toListPackages converts a page of packages for the v2 lists.
func toListPackages(l kb.PackageList, hostedNames bool) listPackagesResponse {
	out := make([]packageData, len(l.Packages))
	for i, p := range l.Packages {
		out[i] = toPackageData(p, hostedNames)
	}
	return listPackagesResponse{
		TotalResults: l.Total,
		PackagesList: out,
		Facets:       listFacets{Packages: []packageFacet{}, Subjects: []subjectFacet{}},
	}
}
