package analysisapi

import (
	"github.com/kbserver/kbserver/internal/kb"
)

// The JSON of the collection analysis, decided here once.

type packageJSON struct {
	PackageID   int64  `json:"packageId"`
	PackageName string `json:"packageName"`
	VendorID    int64  `json:"vendorId"`
	TitleCount  int    `json:"titleCount"`
	UniqueCount int    `json:"uniqueCount"`
}

type overlapJSON struct {
	Packages          []packageJSON `json:"packages"`
	SharedCount       int           `json:"sharedCount"`
	SameCoverageCount int           `json:"sameCoverageCount"`
}

type againstPackageJSON struct {
	PackageID   int64  `json:"packageId"`
	PackageName string `json:"packageName"`
	VendorID    int64  `json:"vendorId"`
	TitleCount  int    `json:"titleCount"`
}

type againstJSON struct {
	Package        againstPackageJSON `json:"package"`
	HeldCount      int                `json:"heldCount"`
	HeldFullyCount int                `json:"heldFullyCount"`
}

type coverageJSON struct {
	BeginCoverage string `json:"beginCoverage"`
	EndCoverage   string `json:"endCoverage"`
}

type embargoJSON struct {
	EmbargoUnit  string `json:"embargoUnit"`
	EmbargoValue int    `json:"embargoValue"`
}

type resourceJSON struct {
	PackageID     int64          `json:"packageId"`
	PackageName   string         `json:"packageName"`
	IsSelected    bool           `json:"isSelected"`
	Coverage      []coverageJSON `json:"coverage"`
	Embargo       embargoJSON    `json:"embargo"`
	ClickThroughs int64          `json:"clickThroughs"`
}

type titleJSON struct {
	TitleID       int64          `json:"titleId"`
	TitleName     string         `json:"titleName"`
	PublisherName string         `json:"publisherName"`
	Resources     []resourceJSON `json:"resources"`
}

type listJSON struct {
	TotalResults int `json:"totalResults"`
	// ClicksFrom and ClicksTo are the months of the resources'
	// clickThroughs.
	ClicksFrom string      `json:"clicksFrom"`
	ClicksTo   string      `json:"clicksTo"`
	Titles     []titleJSON `json:"titles"`
}

func overlapWire(o kb.Overlap) overlapJSON {
	out := overlapJSON{Packages: make([]packageJSON, len(o.Packages)), SharedCount: o.SharedCount, SameCoverageCount: o.SameCoverageCount}
	for i, p := range o.Packages {
		out.Packages[i] = packageJSON{PackageID: p.PackageID, PackageName: p.PackageName, VendorID: p.VendorID, TitleCount: p.TitleCount, UniqueCount: p.UniqueCount}
	}
	return out
}

func againstWire(a kb.Against) againstJSON {
	p := a.Package
	return againstJSON{Package: againstPackageJSON{PackageID: p.PackageID, PackageName: p.PackageName, VendorID: p.VendorID, TitleCount: p.TitleCount},
		HeldCount: a.HeldCount, HeldFullyCount: a.HeldFullyCount}
}

// listWire is a page of a list: each title with the resources shown says
// to show (for an overlap: those in the packages compared; against the
// holdings: that package's and the customer's selected ones; of the
// duplicates: the selected ones), each with its effective coverage and
// embargo.
func listWire(total int, titles []kb.Title, shown func(kb.Resource) bool, clk Clicks) listJSON {
	out := listJSON{TotalResults: total, ClicksFrom: string(clk.From), ClicksTo: string(clk.To), Titles: make([]titleJSON, 0, len(titles))}
	for _, t := range titles {
		tj := titleJSON{TitleID: t.ID, TitleName: t.Name, PublisherName: t.Publisher, Resources: []resourceJSON{}}
		for _, r := range t.Resources {
			if !shown(r) {
				continue
			}
			c := kb.HeldCoverageOf(r)
			rj := resourceJSON{PackageID: r.PackageID, PackageName: r.PackageName, IsSelected: r.IsSelected, Coverage: []coverageJSON{},
				ClickThroughs: clk.Of[kb.ResourceKey{PackageID: r.PackageID, TitleID: t.ID}]}
			for _, rg := range c.Ranges {
				rj.Coverage = append(rj.Coverage, coverageJSON{BeginCoverage: rg.Begin, EndCoverage: rg.End})
			}
			if c.Embargo.Unit != kb.EmbargoNone && c.Embargo.Value > 0 {
				rj.Embargo = embargoJSON{EmbargoUnit: c.Embargo.Unit.String(), EmbargoValue: c.Embargo.Value}
			}
			tj.Resources = append(tj.Resources, rj)
		}
		out.Titles = append(out.Titles, tj)
	}
	return out
}
