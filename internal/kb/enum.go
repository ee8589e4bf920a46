package kb

import (
	"fmt"
	"strconv"
	"strings"
)

// enum describes one enumeration of the wire format: its query names (the
// lower-case string form, whose index is the numeric form) and its display
// names (the form responses carry).
type enum struct {
	param   string   // the query parameter name, for messages
	names   []string // query names; index = numeric form
	display []string // response names; may be nil
}

// parse reads s as a query name (any case) or as the numeric form.
func (e enum) parse(s string) (int, error) {
	t := strings.TrimSpace(s)
	for i, n := range e.names {
		if strings.EqualFold(t, n) {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(t); err == nil && n >= 0 && n < len(e.names) {
		return n, nil
	}
	return 0, Errorf(CodeInvalid, "Parameter %s has an invalid value %q: allowed values are %s (or 0-%d).",
		e.param, s, strings.Join(e.names, ", "), len(e.names)-1)
}

func (e enum) name(i int) string {
	if i < 0 || i >= len(e.names) {
		return fmt.Sprintf("%s(%d)", e.param, i)
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
	param:   "contenttype",
	names:   []string{"all", "aggregatedfulltext", "abstractandindex", "ebook", "ejournal", "print", "unknown", "onlinereference"},
	display: []string{"All", "AggregatedFullText", "AbstractAndIndex", "EBook", "EJournal", "Print", "Unknown", "OnlineReference"},
}

// ParseContentType reads a content type from its query name or number.
func ParseContentType(s string) (ContentType, error) {
	i, err := contentTypes.parse(s)
	return ContentType(i), err
}

// String returns the query name, e.g. "ejournal".
func (c ContentType) String() string { return contentTypes.name(int(c)) }

// Display returns the response form, e.g. "EJournal".
func (c ContentType) Display() string { return contentTypes.displayName(int(c)) }

// ContentTypeNames lists the query names of the content types, "all" first.
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

var selections = enum{param: "selection", names: []string{"all", "selected", "notselected", "orderedthroughoperator"}}

// ParseSelection reads a selection filter from its name or number.
func ParseSelection(s string) (Selection, error) {
	i, err := selections.parse(s)
	return Selection(i), err
}

// String returns the query name.
func (s Selection) String() string { return selections.name(int(s)) }

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
	param: "resourcetype",
	names: []string{"all", "journal", "newsletter", "report", "proceedings", "website", "newspaper", "unspecified",
		"book", "bookseries", "database", "thesisdissertation", "streamingaudio", "streamingvideo", "audiobook"},
	display: []string{"All", "Journal", "Newsletter", "Report", "Proceedings", "Website", "Newspaper", "Unspecified",
		"Book", "BookSeries", "Database", "ThesisDissertation", "StreamingAudio", "StreamingVideo", "AudioBook"},
}

// ParseResourceType reads a resource type from its name or number.
func ParseResourceType(s string) (ResourceType, error) {
	i, err := resourceTypes.parse(s)
	return ResourceType(i), err
}

// String returns the query name, e.g. "bookseries".
func (r ResourceType) String() string { return resourceTypes.name(int(r)) }

// Display returns the response form, e.g. "BookSeries".
func (r ResourceType) Display() string { return resourceTypes.displayName(int(r)) }

// ResourceTypeNames lists the query names of the resource types, "all" first.
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

var searchFields = enum{param: "searchfield", names: []string{"titlename", "publisher", "isxn", "subject"}}

// ParseSearchField reads a search field from its name or number.
func ParseSearchField(s string) (SearchField, error) {
	i, err := searchFields.parse(s)
	return SearchField(i), err
}

// String returns the query name.
func (f SearchField) String() string { return searchFields.name(int(f)) }

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

var searchTypes = enum{param: "searchtype", names: []string{"any", "contains", "exactmatch", "beginswith", "proximity", "exactphrase", "advanced"}}

// ParseSearchType reads a search type from its name or number.
func ParseSearchType(s string) (SearchType, error) {
	i, err := searchTypes.parse(s)
	return SearchType(i), err
}

// String returns the query name.
func (t SearchType) String() string { return searchTypes.name(int(t)) }

// SearchTypeNames lists the query names of the search types.
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

var packageTypes = enum{param: "packageType", names: []string{"selectable", "complete", "variable", "custom"},
	display: []string{"Selectable", "Complete", "Variable", "Custom"}}

// ParsePackageType reads a package type from its name (any case) or number.
func ParsePackageType(s string) (PackageType, error) {
	i, err := packageTypes.parse(s)
	return PackageType(i), err
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

// ParseOrder reads an orderby value: "relevance" or nameParam (titlename,
// packagename, vendorname), in any case, or 0 (relevance) / 1 (name). An
// empty value is OrderDefault.
func ParseOrder(s, nameParam string) (Order, error) {
	switch t := strings.TrimSpace(s); {
	case t == "":
		return OrderDefault, nil
	case strings.EqualFold(t, "relevance") || t == "0":
		return OrderRelevance, nil
	case strings.EqualFold(t, nameParam) || t == "1":
		return OrderName, nil
	}
	return 0, Errorf(CodeInvalid, "Parameter orderby has an invalid value %q: allowed values are relevance, %s (or 0-1).", s, nameParam)
}

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

var embargoUnits = enum{param: "embargoUnit", names: []string{"", "days", "weeks", "months", "years"},
	display: []string{"", "Days", "Weeks", "Months", "Years"}}

// ParseEmbargoUnit reads Days, Weeks, Months or Years in any case.
func ParseEmbargoUnit(s string) (EmbargoUnit, error) {
	for i := 1; i < len(embargoUnits.names); i++ {
		if strings.EqualFold(strings.TrimSpace(s), embargoUnits.names[i]) {
			return EmbargoUnit(i), nil
		}
	}
	return 0, Errorf(CodeInvalid, "Parameter customEmbargoPeriod.embargoUnit must be one of (days, weeks, months, years).")
}

// String returns the display form ("Days"), or "" for EmbargoNone.
func (u EmbargoUnit) String() string { return embargoUnits.displayName(int(u)) }
