package kb

import (
	"fmt"
	"strconv"
	"strings"
)

// enum describes one enumeration of the wire format: its names (the
// lower-case string form, whose index is the numeric form) and its display
// names (the form responses carry). Which request parameter or member
// carries it, and the message for a value it does not know, are the API's.
type enum struct {
	kind    string   // the Go type's name, for a value out of range
	names   []string // names; index = numeric form
	display []string // response names; may be nil
}

// lookup finds s, without surrounding white space, among the names (in
// any case) or as a numeric form.
func (e enum) lookup(s string) (int, bool) {
	t := strings.TrimSpace(s)
	for i, n := range e.names {
		if strings.EqualFold(t, n) {
			return i, true
		}
	}
	if n, err := strconv.Atoi(t); err == nil && n >= 0 && n < len(e.names) {
		return n, true
	}
	return 0, false
}

func (e enum) name(i int) string {
	if i < 0 || i >= len(e.names) {
		return fmt.Sprintf("%s(%d)", e.kind, i)
	}
	return e.names[i]
}

func (e enum) displayName(i int) string {
	if e.display == nil || i < 0 || i >= len(e.display) {
		return e.name(i)
	}
	return e.display[i]
}

// ContentType is a package's content type. ContentAll is a filter value only.
type ContentType int

// Content types; the numeric values are the wire's numeric forms.
const (
	ContentAll ContentType = iota
	ContentAggregatedFullText
	ContentAbstractAndIndex
	ContentEBook
	ContentEJournal
	ContentPrint
	ContentUnknown
	ContentOnlineReference
)

var contentTypes = enum{
	kind:    "ContentType",
	names:   []string{"all", "aggregatedfulltext", "abstractandindex", "ebook", "ejournal", "print", "unknown", "onlinereference"},
	display: []string{"All", "AggregatedFullText", "AbstractAndIndex", "EBook", "EJournal", "Print", "Unknown", "OnlineReference"},
}

// LookupContentType finds a content type by its name (any case, e.g.
// "ejournal") or number; ok is false for anything else.
func LookupContentType(s string) (c ContentType, ok bool) {
	i, ok := contentTypes.lookup(s)
	return ContentType(i), ok
}

// String returns the name, e.g. "ejournal".
func (c ContentType) String() string { return contentTypes.name(int(c)) }

// Display returns the response form, e.g. "EJournal".
func (c ContentType) Display() string { return contentTypes.displayName(int(c)) }

// ContentTypeNames lists the names of the content types, "all" first.
func ContentTypeNames() []string { return append([]string(nil), contentTypes.names...) }

// Selection filters objects by the customer's selection.
type Selection int

// Selection filter values.
const (
	SelectionAll Selection = iota
	SelectionSelected
	SelectionNotSelected
	SelectionOrderedThroughOperator
)

var selections = enum{kind: "Selection", names: []string{"all", "selected", "notselected", "orderedthroughoperator"}}

// SelectionOperatorAlias is the branded word that clients of the hosted
// service send for orderedthroughoperator; it is read as an alias only.
const SelectionOperatorAlias = "orderedthroughebsco"

// LookupSelection finds a selection filter by its name (any case), its
// number or SelectionOperatorAlias; ok is false for anything else.
func LookupSelection(s string) (sel Selection, ok bool) {
	if strings.EqualFold(strings.TrimSpace(s), SelectionOperatorAlias) {
		return SelectionOrderedThroughOperator, true
	}
	i, ok := selections.lookup(s)
	return Selection(i), ok
}

// String returns the name, e.g. "notselected".
func (s Selection) String() string { return selections.name(int(s)) }

// SelectionNames lists the names of the selection filters, "all" first.
func SelectionNames() []string { return append([]string(nil), selections.names...) }

// ResourceType is a title's publication type (pubType). ResourceAll is a
// filter value only.
type ResourceType int

// Resource types; the numeric values are the wire's numeric forms.
const (
	ResourceAll ResourceType = iota
	ResourceJournal
	ResourceNewsletter
	ResourceReport
	ResourceProceedings
	ResourceWebsite
	ResourceNewspaper
	ResourceUnspecified
	ResourceBook
	ResourceBookSeries
	ResourceDatabase
	ResourceThesisDissertation
	ResourceStreamingAudio
	ResourceStreamingVideo
	ResourceAudioBook
)

var resourceTypes = enum{
	kind: "ResourceType",
	names: []string{"all", "journal", "newsletter", "report", "proceedings", "website", "newspaper", "unspecified",
		"book", "bookseries", "database", "thesisdissertation", "streamingaudio", "streamingvideo", "audiobook"},
	display: []string{"All", "Journal", "Newsletter", "Report", "Proceedings", "Website", "Newspaper", "Unspecified",
		"Book", "BookSeries", "Database", "ThesisDissertation", "StreamingAudio", "StreamingVideo", "AudioBook"},
}

// LookupResourceType finds a resource type by its name (any case, e.g.
// "bookseries") or number; ok is false for anything else.
func LookupResourceType(s string) (r ResourceType, ok bool) {
	i, ok := resourceTypes.lookup(s)
	return ResourceType(i), ok
}

// String returns the name, e.g. "bookseries".
func (r ResourceType) String() string { return resourceTypes.name(int(r)) }

// Display returns the response form, e.g. "BookSeries".
func (r ResourceType) Display() string { return resourceTypes.displayName(int(r)) }

// ResourceTypeNames lists the names of the resource types, "all" first.
func ResourceTypeNames() []string { return append([]string(nil), resourceTypes.names...) }

// SearchField names the title field a search runs over.
type SearchField int

// Search fields.
const (
	FieldTitleName SearchField = iota
	FieldPublisher
	FieldISXN
	FieldSubject
)

var searchFields = enum{kind: "SearchField", names: []string{"titlename", "publisher", "isxn", "subject"}}

// LookupSearchField finds a search field by its name (any case) or
// number; ok is false for anything else.
func LookupSearchField(s string) (f SearchField, ok bool) {
	i, ok := searchFields.lookup(s)
	return SearchField(i), ok
}

// String returns the name, e.g. "isxn".
func (f SearchField) String() string { return searchFields.name(int(f)) }

// SearchFieldNames lists the names of the search fields.
func SearchFieldNames() []string { return append([]string(nil), searchFields.names...) }

// SearchType is how a search term matches.
type SearchType int

// Search types; SearchContains is the default.
const (
	SearchAny SearchType = iota
	SearchContains
	SearchExactMatch
	SearchBeginsWith
	SearchProximity
	SearchExactPhrase
	SearchAdvanced
)

var searchTypes = enum{kind: "SearchType", names: []string{"any", "contains", "exactmatch", "beginswith", "proximity", "exactphrase", "advanced"}}

// LookupSearchType finds a search type by its name (any case) or number;
// ok is false for anything else.
func LookupSearchType(s string) (t SearchType, ok bool) {
	i, ok := searchTypes.lookup(s)
	return SearchType(i), ok
}

// String returns the name, e.g. "exactmatch".
func (t SearchType) String() string { return searchTypes.name(int(t)) }

// SearchTypeNames lists the names of the search types.
func SearchTypeNames() []string { return append([]string(nil), searchTypes.names...) }

// PackageType says how a package may be selected.
type PackageType int

// Package types.
const (
	PackageSelectable PackageType = iota
	PackageComplete
	PackageVariable
	PackageCustom
)

var packageTypes = enum{kind: "PackageType", names: []string{"selectable", "complete", "variable", "custom"},
	display: []string{"Selectable", "Complete", "Variable", "Custom"}}

// LookupPackageType finds a package type by its name (any case) or
// number; ok is false for anything else.
func LookupPackageType(s string) (p PackageType, ok bool) {
	i, ok := packageTypes.lookup(s)
	return PackageType(i), ok
}

// String returns the display form, e.g. "Selectable".
func (p PackageType) String() string { return packageTypes.displayName(int(p)) }

// Order is the sort order of a list.
type Order int

// Orders. OrderDefault means relevance with a search term and name without.
const (
	OrderDefault Order = iota
	OrderRelevance
	OrderName
)

// EmbargoUnit is the unit of an embargo period. EmbargoNone means no embargo.
type EmbargoUnit int

// Embargo units.
const (
	EmbargoNone EmbargoUnit = iota
	EmbargoDays
	EmbargoWeeks
	EmbargoMonths
	EmbargoYears
)

var embargoUnits = enum{kind: "EmbargoUnit", names: []string{"", "days", "weeks", "months", "years"},
	display: []string{"", "Days", "Weeks", "Months", "Years"}}

// lookupEmbargoUnit finds an embargo unit by its name, Days, Weeks, Months
// or Years in any case (not by number); ok is false for anything else,
// the empty string included.
func lookupEmbargoUnit(s string) (u EmbargoUnit, ok bool) {
	for i := 1; i < len(embargoUnits.names); i++ {
		if strings.EqualFold(strings.TrimSpace(s), embargoUnits.names[i]) {
			return EmbargoUnit(i), true
		}
	}
	return EmbargoNone, false
}

// String returns the display form ("Days"), or "" for EmbargoNone.
func (u EmbargoUnit) String() string { return embargoUnits.displayName(int(u)) }
