package kbart

import "strconv"

// Field identifies one of the 25 standard KBART Phase II columns. Its value
// is the column's position in a standard file.
type Field int

// The 25 KBART Phase II fields in standard order, then NumFields, the count.
const (
	PublicationTitle Field = iota
	PrintIdentifier
	OnlineIdentifier
	DateFirstIssueOnline
	NumFirstVolOnline
	NumFirstIssueOnline
	DateLastIssueOnline
	NumLastVolOnline
	NumLastIssueOnline
	TitleURL
	FirstAuthor
	TitleID
	EmbargoInfo
	CoverageDepth
	Notes
	PublisherName
	PublicationType
	DateMonographPublishedPrint
	DateMonographPublishedOnline
	MonographVolume
	MonographEdition
	FirstEditor
	ParentPublicationTitleID
	PrecedingPublicationTitleID
	AccessType
	NumFields
)

// Header holds the 25 standard KBART Phase II column names in standard
// order; Header[f] is the name of field f.
var Header = [NumFields]string{
	"publication_title",
	"print_identifier",
	"online_identifier",
	"date_first_issue_online",
	"num_first_vol_online",
	"num_first_issue_online",
	"date_last_issue_online",
	"num_last_vol_online",
	"num_last_issue_online",
	"title_url",
	"first_author",
	"title_id",
	"embargo_info",
	"coverage_depth",
	"notes",
	"publisher_name",
	"publication_type",
	"date_monograph_published_print",
	"date_monograph_published_online",
	"monograph_volume",
	"monograph_edition",
	"first_editor",
	"parent_publication_title_id",
	"preceding_publication_title_id",
	"access_type",
}

// phaseIFields is the number of leading fields that KBART Phase I files
// carry (publication_title through publisher_name, with coverage_notes in
// place of notes).
const phaseIFields = int(PublisherName) + 1

// String returns the KBART header name of f, such as "publication_title",
// or "Field(n)" for a value outside the standard range.
func (f Field) String() string {
	if f >= 0 && f < NumFields {
		return Header[f]
	}
	return "Field(" + strconv.Itoa(int(f)) + ")"
}
