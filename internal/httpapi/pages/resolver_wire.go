package pages

import "github.com/kbserver/kbserver/internal/kb"

// The JSON form of the link resolver's answer (GET /openurl/{profile}
// with Accept: application/json), kbserver's own extension, described in
// the OpenAPI description.

// resolutionWire is the whole answer: the citation as understood,
// whether some result gives the full text, and the results best first.
type resolutionWire struct {
	Citation citationWire   `json:"citation"`
	FullText bool           `json:"fullText"`
	Results  []resolvedWire `json:"results"`
}

// citationWire is the citation as the resolver understood it; notes say
// what it ignored and why.
type citationWire struct {
	Genre        string   `json:"genre,omitempty"`
	ISSNs        []string `json:"issns"`
	ISBNs        []string `json:"isbns"`
	Title        string   `json:"title,omitempty"`
	ArticleTitle string   `json:"articleTitle,omitempty"`
	Author       string   `json:"author,omitempty"`
	Date         string   `json:"date,omitempty"`
	Volume       string   `json:"volume,omitempty"`
	Issue        string   `json:"issue,omitempty"`
	StartPage    string   `json:"startPage,omitempty"`
	DOI          string   `json:"doi,omitempty"`
	Source       string   `json:"source,omitempty"`
	MatchedBy    string   `json:"matchedBy,omitempty"`
	Notes        []string `json:"notes"`
}

// resolvedWire is one held resource of a matched title.
type resolvedWire struct {
	TitleID     int64          `json:"titleId"`
	TitleName   string         `json:"titleName"`
	PackageID   int64          `json:"packageId"`
	PackageName string         `json:"packageName"`
	VendorName  string         `json:"vendorName"`
	Covered     bool           `json:"covered"`
	Reason      string         `json:"reason,omitempty"`
	ReasonText  string         `json:"reasonText,omitempty"`
	Coverage    []coverageWire `json:"coverage"`
	Embargo     *embargoWire   `json:"embargo,omitempty"`
	Links       []linkWire     `json:"links"`
}

// coverageWire is one coverage range, as the holdings service writes them.
type coverageWire struct {
	BeginCoverage string `json:"beginCoverage"`
	EndCoverage   string `json:"endCoverage"`
}

// embargoWire is an embargo, as the holdings service writes them.
type embargoWire struct {
	Unit  string `json:"embargoUnit"`
	Value int    `json:"embargoValue"`
}

// linkWire is a link: its level, the signed link-out (url) and the
// address the link-out leads to (target).
type linkWire struct {
	Level  string `json:"level"`
	URL    string `json:"url"`
	Target string `json:"target"`
}

func citationWireOf(c kb.Citation, matchedBy string) citationWire {
	w := citationWire{Genre: c.Genre, ISSNs: c.ISSNs, ISBNs: c.ISBNs, Title: c.Title, ArticleTitle: c.ArticleTitle,
		Author: c.Author, Date: c.Date, Volume: c.Volume, Issue: c.Issue, StartPage: c.StartPage, DOI: c.DOI,
		Source: c.Source, MatchedBy: matchedBy, Notes: c.Notes}
	if w.ISSNs == nil {
		w.ISSNs = []string{}
	}
	if w.ISBNs == nil {
		w.ISBNs = []string{}
	}
	if w.Notes == nil {
		w.Notes = []string{}
	}
	return w
}

func coverageWires(cs []kb.Coverage) []coverageWire {
	out := make([]coverageWire, len(cs))
	for i, c := range cs {
		out[i] = coverageWire{BeginCoverage: c.Begin, EndCoverage: c.End}
	}
	return out
}
