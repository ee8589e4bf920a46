package pfapi

import (
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
)

// contentType is a package's content type as this service spells it
// ("AbstractandIndex", where the holdings service has "AbstractAndIndex").
func contentType(c kb.ContentType) string {
	if c == kb.ContentAbstractAndIndex {
		return "AbstractandIndex"
	}
	return c.Display()
}

// numericID returns the customer id as a number for the integer members
// (customerId, custId): the specification types them int64, and kbserver's
// customer ids are text. A customer id that is no number (or is negative)
// is 0: a typed client reads a number either way, and the profile in the
// path names the customer.
func numericID(custID string) int64 {
	n, err := strconv.ParseInt(custID, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// recordContext is what turning a title into a record needs beyond the
// title: the customer's labels and proxies and the link-out signer.
type recordContext struct {
	custID  string
	labels  [5]kb.Label
	masks   map[string]string // proxy id → URL mask
	linkOut func(kb.ResourceKey) string
}

func (c recordContext) record(t kb.Title) recordWire {
	rec := recordWire{
		TitleID:               strconv.FormatInt(t.ID, 10),
		TitleName:             t.Name,
		Edition:               t.Edition,
		Description:           t.Description,
		IsPeerReviewed:        t.PeerReviewed,
		PublisherName:         t.Publisher,
		IdentifiersList:       make([]identifierWire, len(t.Identifiers)),
		SubjectsList:          make([]subjectWire, len(t.Subjects)),
		IsTitleCustom:         t.IsCustom,
		PubType:               t.PubType.String(),
		ContributorsList:      make([]contributorWire, len(t.Contributors)),
		CustomerResourcesList: make([]customerResource, len(t.Resources)),
		AlternateTitleList:    []alternateTitle{},
	}
	for i, id := range t.Identifiers {
		rec.IdentifiersList[i] = identifierWire{ID: id.ID, Source: id.Source, Subtype: int(id.Subtype), Type: int(id.Type)}
	}
	for i, s := range t.Subjects {
		rec.SubjectsList[i] = subjectWire{Type: s.Type, Name: s.Name}
	}
	for i, ct := range t.Contributors {
		rec.ContributorsList[i] = contributorWire{Contributor: ct.Name, Type: ct.Type}
	}
	for i, r := range t.Resources {
		rec.CustomerResourcesList[i] = c.resource(r)
	}
	return rec
}

func (c recordContext) resource(r kb.Resource) customerResource {
	key := kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID}
	out := customerResource{
		TitleID:              r.TitleID,
		PackageID:            r.PackageID,
		PackageName:          r.PackageName,
		PackageType:          r.PackageType.String(),
		IsPackageCustom:      r.IsPackageCustom,
		VendorID:             r.VendorID,
		VendorName:           r.VendorName,
		IsSelected:           r.IsSelected,
		IsTokenNeeded:        r.IsTokenNeeded,
		ManagedCoverageList:  coverages(r.ManagedCoverage),
		CustomCoverageList:   coverages(r.CustomCoverage),
		CoverageStatement:    r.CoverageStatement,
		ManagedEmbargoPeriod: toEmbargo(r.ManagedEmbargo),
		CustomEmbargoPeriod:  toEmbargo(r.CustomEmbargo),
		URL:                  r.URL,
		PackageToken:         toToken(r.PackageToken),
		VendorToken:          toToken(r.VendorToken),
		Note:                 make([]noteWire, len(r.Notes)),
		UserDefinedFields:    []userDefinedField{},
		VisibilityData:       visibilityDataKbid{IsHidden: r.Visibility.Hidden},
		LinkOutTargetURL:     c.linkOut(key),
		TargetURL: kb.TargetURL(kb.ResourceLink{URL: r.URL, VendorToken: r.VendorToken, PackageToken: r.PackageToken,
			ProxyMask: c.masks[r.Proxy.ID]}),
	}
	for i, n := range r.Notes {
		out.Note[i] = c.note(n)
	}
	for i, l := range c.labels {
		if l.DisplayOnPublicationFinder && l.DisplayLabel != "" && r.UserDefined[i] != "" {
			out.UserDefinedFields = append(out.UserDefinedFields, userDefinedField{
				DisplayOnPublicationFinder: true, ID: i + 1, Label: l.DisplayLabel, Value: r.UserDefined[i]})
		}
	}
	return out
}

func (c recordContext) note(n kb.Note) noteWire {
	w := noteWire{ID: n.ID, CustID: numericID(c.custID), NoteName: n.Name, Rank: n.Rank, NoteText: n.Text,
		IconID: n.IconID, AltText: n.AltText, HoverText: n.HoverText, LinkURL: n.LinkURL, ShowOnFlags: n.ShowOn}
	if n.IconURL != "" {
		w.IconURL = &n.IconURL
	}
	if w.ShowOnFlags == nil {
		w.ShowOnFlags = []string{}
	}
	return w
}

func coverages(cs []kb.Coverage) []coverage {
	out := make([]coverage, len(cs))
	for i, c := range cs {
		out[i] = coverage{BeginCoverage: c.Begin, EndCoverage: c.End}
	}
	return out
}

func toEmbargo(e kb.Embargo) embargo {
	if e.Unit == kb.EmbargoNone || e.Value == 0 {
		return embargo{}
	}
	unit, value := e.Unit.String(), e.Value
	return embargo{EmbargoUnit: &unit, EmbargoValue: &value}
}

func toToken(t *kb.Token) *pfToken {
	if t == nil {
		return nil
	}
	return &pfToken{FactName: t.FactName, Value: t.Value}
}

func toPSMPackage(p kb.Package) psmPackage {
	return psmPackage{
		ContentType:    contentType(p.ContentType),
		CustomCoverage: coverage{BeginCoverage: p.CustomCoverage.Begin, EndCoverage: p.CustomCoverage.End},
		IsCustom:       p.IsCustom,
		IsSelected:     p.IsSelected,
		IsTokenNeeded:  p.IsTokenNeeded,
		PackageID:      p.ID,
		PackageName:    p.Name,
		PackageType:    p.PackageType.String(),
		SelectedCount:  p.SelectedCount,
		TitleCount:     p.TitleCount,
		VendorID:       p.VendorID,
		VendorName:     p.VendorName,
		VisibilityData: visibilityData{IsHidden: p.Visibility.Hidden, Reason: p.Visibility.Reason},
	}
}
