package pages

import (
	"net/http"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// menuData is what the link resolver's menu shows.
type menuData struct {
	frame
	Citation  []menuField // the citation as understood, field by field
	Notes     []string    // what the resolver ignored and why
	Matchable bool
	FullText  []menuResult // results that give the full text, best first
	NotCover  []menuResult // titles held that do not cover the citation
	// What to do when nothing gives the full text: search the A–Z page,
	// or ask for the item through interlibrary loan.
	AZ, Search, SearchField, RequestHref string
}

// menuField is one understood field of the citation.
type menuField struct{ Label, Value string }

// menuResult is one held resource in the menu.
type menuResult struct {
	Title, Package, Coverage, Statement, Reason string
	Links                                       []menuLink
	Fields                                      []struct{ Label, Value string }
}

// menuLink is one link of a result: what it leads to, and the link-out.
type menuLink struct{ Label, Href string }

// menu builds the menu of a resolution whose JSON form is ans.
// labels are the customer's user-defined field labels: the fields shown
// in full-text finders are shown with each result.
func (p *pages) menu(r *http.Request, id kb.ProfileID, prof kb.Profile, labels [5]kb.Label, res kb.Resolution, ans resolutionWire) menuData {
	c := res.Citation
	d := menuData{frame: frame{Title: "Find it", Brand: "Find it", Home: AZPath(id)}, Notes: c.Notes, Matchable: c.Matchable(), AZ: AZPath(id)}
	// The customer's name brands the page; without it (a failed read)
	// the page still answers.
	if cust, err := p.store.Customer(r.Context(), id.CustomerID); err == nil && cust.Name != "" {
		d.Brand = cust.Name
		d.Title = cust.Name + ": find it"
	}
	add := func(label, value string) {
		if value != "" {
			d.Citation = append(d.Citation, menuField{label, value})
		}
	}
	add("Article", c.ArticleTitle)
	add("Author", c.Author)
	add("In", c.Title)
	add("ISSN", strings.Join(c.ISSNs, ", "))
	add("ISBN", strings.Join(c.ISBNs, ", "))
	add("Date", c.Date)
	add("Volume", c.Volume)
	add("Issue", c.Issue)
	add("Page", c.StartPage)
	add("DOI", c.DOI)
	d.Search, d.SearchField = c.Title, "titlename"
	if d.Search == "" {
		switch {
		case len(c.ISSNs) > 0:
			d.Search, d.SearchField = c.ISSNs[0], "isxn"
		case len(c.ISBNs) > 0:
			d.Search, d.SearchField = c.ISBNs[0], "isxn"
		}
	}
	for i, x := range res.Results {
		rs := x.Resource
		m := menuResult{Title: x.Title.Name, Package: rs.PackageName, Coverage: coverageWords(rs), Statement: rs.CoverageStatement}
		if rs.VendorName != "" && rs.VendorName != rs.PackageName {
			m.Package += " (" + rs.VendorName + ")"
		}
		for j, l := range x.Links {
			label := "Go to the " + typeNoun(x.Title.PubType)
			if l.Level == kb.LevelArticle {
				label = "Go to the article"
			}
			m.Links = append(m.Links, menuLink{Label: label, Href: ans.Results[i].Links[j].URL})
		}
		for k, l := range labels {
			if l.DisplayOnFullTextFinder && l.DisplayLabel != "" && rs.UserDefined[k] != "" {
				m.Fields = append(m.Fields, struct{ Label, Value string }{l.DisplayLabel, rs.UserDefined[k]})
			}
		}
		if x.Covered() {
			d.FullText = append(d.FullText, m)
		} else {
			m.Reason = x.Reason.Words()
			d.NotCover = append(d.NotCover, m)
		}
	}
	if len(d.FullText) == 0 && c.Matchable() {
		d.RequestHref = RequestLink(prof.RequestURL, c)
	}
	return d
}

// typeNoun names a title's kind for a link: the journal, the book, …
func typeNoun(t kb.ResourceType) string {
	switch {
	case kb.IsSerialType(t):
		return "journal"
	case t == kb.ResourceBook:
		return "book"
	}
	return "resource"
}
