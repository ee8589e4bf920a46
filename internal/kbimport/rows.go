package kbimport

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Ident is one identifier of an import row: its type and subtype, its text
// as the row gives it, its matching form and whether it is valid.
type Ident struct {
	Type    kb.IdentifierType
	Subtype kb.IdentifierSubtype
	Value   string
	Norm    string // a valid ISSN as 1234-567X, a valid ISBN as 13 digits; else the search form
	Valid   bool
}

// rowIdents reads the print and online identifiers of a row. Values that
// are neither ISSN- nor ISBN-shaped (DOIs, free text) are not identifiers;
// they stay in the stored KBART row.
func rowIdents(v *[kb.KBARTFieldCount]string) []Ident {
	var ids []Ident
	for _, f := range [2]struct {
		field   kbart.Field
		subtype kb.IdentifierSubtype
	}{{kbart.PrintIdentifier, kb.SubtypePrint}, {kbart.OnlineIdentifier, kb.SubtypeOnline}} {
		s := strings.TrimSpace(v[f.field])
		if s == "" {
			continue
		}
		id := Ident{Subtype: f.subtype, Value: s}
		switch {
		case kb.ISSNShaped(s):
			id.Type = kb.IdentISSN
			id.Norm, id.Valid = kb.NormalizeISSN(s)
		case kb.ISBNShaped(s):
			id.Type = kb.IdentISBN
			id.Norm, id.Valid = kb.NormalizeISBN(s)
		default:
			continue
		}
		if !id.Valid {
			id.Norm = kb.NormalizeISXNQuery(s) // as a search normalises it
		}
		ids = append(ids, id)
	}
	return ids
}

// matchHash identifies a title by folded name, publisher and type, for
// import rows without a valid identifier.
func matchHash(name, publisher string, t kb.ResourceType) int64 {
	return foldedMatchHash(kb.Fold(name), kb.Fold(publisher), t)
}

// foldedMatchHash is matchHash of a name and publisher folded already.
func foldedMatchHash(sortName, sortPublisher string, t kb.ResourceType) int64 {
	return int64(fnv64(0, sortName+"|"+sortPublisher+"|"+t.String()))
}

// fnv64 extends an FNV-1a hash with s; h 0 starts a new hash. Resources
// keep the hash of their KBART rows, extended a row at a time.
func fnv64(h uint64, s string) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// ImportRow is an import row made ready for matching: its KBART fields
// cleaned of tabs and line breaks, its trimmed name and publisher, its
// resource type, identifiers and match hash.
type ImportRow struct {
	Row       *kb.ImportRow
	Name      string
	Publisher string
	// SortName and SortPublisher are Name and Publisher folded (kb.Fold).
	SortName      string
	SortPublisher string
	PubType       kb.ResourceType
	Idents        []Ident
	HasValid      bool // some identifier is valid: the row matches by identifier only
	Match         int64
	ProviderID    string // the KBART title_id
	URL           string
}

// Key returns what tells the row's item from others of its name (kb.SameItem).
func (p *ImportRow) Key() kb.ItemKey { return kb.ItemKey{ProviderID: p.ProviderID, URL: p.URL} }

// Line returns the row as the resource stores it: its fields, then its
// non-standard columns' values, tab-separated.
func (p *ImportRow) Line() string {
	line := strings.Join(p.Row.KBART[:], "\t")
	for _, v := range p.Row.Extra {
		line += "\t" + fieldBreaks.Replace(v)
	}
	return line
}

// fieldBreaks turns the separators of stored KBART rows into spaces.
var fieldBreaks = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ")

// prepareRow readies a row for matching; it rewrites the row's fields in
// place (tabs and line breaks become spaces, since stored rows use them as
// separators). A row without a publication_title is CodeMissing.
func prepareRow(row *kb.ImportRow) (ImportRow, error) {
	v := &row.KBART
	for i := range v {
		if strings.ContainsAny(v[i], "\t\r\n") {
			v[i] = fieldBreaks.Replace(v[i])
		}
	}
	p := ImportRow{Row: row, Name: strings.TrimSpace(v[kbart.PublicationTitle]), Publisher: strings.TrimSpace(v[kbart.PublisherName]),
		ProviderID: strings.TrimSpace(v[kbart.TitleID]), URL: strings.TrimSpace(v[kbart.TitleURL])}
	if p.Name == "" {
		return p, kb.Errorf(kb.CodeMissing, "publication_title is empty")
	}
	// The KBART reader rejects such rows; a row from elsewhere must not
	// break an index of the store either.
	if err := errors.Join(kb.CheckText("publication_title", p.Name, kb.LimitName),
		kb.CheckText("publisher_name", p.Publisher, kb.LimitName)); err != nil {
		return p, err
	}
	p.PubType = row.PubType
	if p.PubType == kb.ResourceAll {
		p.PubType = kb.ResourceTypeFromKBART(v[kbart.PublicationType])
	}
	p.Idents = rowIdents(v)
	for _, id := range p.Idents {
		p.HasValid = p.HasValid || id.Valid
	}
	p.SortName, p.SortPublisher = kb.Fold(p.Name), kb.Fold(p.Publisher)
	p.Match = foldedMatchHash(p.SortName, p.SortPublisher, p.PubType)
	return p, nil
}

// TitleJSON returns the subjects and contributors columns of a title an
// import row creates. A row without contributors gives its KBART
// first_author as the title's author.
func TitleJSON(row *kb.ImportRow) (subjects, contributors string) {
	subjects = kbsql.PairsJSON(row.Subjects, func(s kb.Subject) [2]string { return [2]string{s.Type, s.Name} })
	contributors = kbsql.PairsJSON(row.Contributors, func(c kb.Contributor) [2]string { return [2]string{c.Type, c.Name} })
	if len(row.Contributors) == 0 {
		if a := strings.TrimSpace(row.KBART[kbart.FirstAuthor]); a != "" {
			contributors = kbsql.PairsJSON([]string{a}, func(s string) [2]string { return [2]string{"Author", s} })
		}
	}
	return subjects, contributors
}

// CoverageJSON returns a KBART row's managed coverage range as JSON
// [begin,end], or nil when the row has no begin date.
func CoverageJSON(v *[kb.KBARTFieldCount]string) json.RawMessage {
	c, ok := kb.CoverageFromKBART(v[kbart.DateFirstIssueOnline], v[kbart.DateLastIssueOnline])
	if !ok {
		return nil
	}
	b, _ := json.Marshal([2]string{c.Begin, c.End})
	return b
}

// rowEmbargo returns the managed embargo of a KBART row's embargo_info;
// EmbargoNone, 0 when it has none.
func rowEmbargo(v *[kb.KBARTFieldCount]string) (kb.EmbargoUnit, int) {
	e, ok := kbart.ParseEmbargo(v[kbart.EmbargoInfo])
	if !ok || e.Period.Value <= 0 {
		return kb.EmbargoNone, 0
	}
	return embargoUnit(e.Period.Unit), e.Period.Value
}

func embargoUnit(u byte) kb.EmbargoUnit {
	switch u {
	case 'D', 'd':
		return kb.EmbargoDays
	case 'W', 'w':
		return kb.EmbargoWeeks
	case 'M', 'm':
		return kb.EmbargoMonths
	case 'Y', 'y':
		return kb.EmbargoYears
	}
	return kb.EmbargoNone
}
