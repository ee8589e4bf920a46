package scholar

import (
	"bytes"
	"encoding/xml"
	"fmt"
)

// Links is an institutional_links.xml: who the library is, where its
// resolver is and where its holdings files are.
type Links struct {
	// Institution is the library's name, as patrons find it in
	// Scholar's settings. Required.
	Institution string
	// Keywords are more words that find the library there; "" for none.
	Keywords string
	// Contact is an address for Google's questions; "" for none.
	Contact string
	// ElectronicLinkLabel is the text of the link Scholar shows beside a
	// held article; "" lets Scholar choose.
	ElectronicLinkLabel string
	// OpenURLBase is the absolute address of the library's resolver, to
	// which Scholar appends an OpenURL 0.1 query. Required.
	OpenURLBase string
	// OpenURLOptions are the extra keys the resolver reads (DefaultOpenURLOptions).
	OpenURLOptions []string
	// Holdings are the absolute addresses of the holdings files. At
	// least one.
	Holdings []string
}

// DefaultOpenURLOptions are the OpenURL options kbserver's resolver
// reads: a DOI (id=doi:…, for an article-level link) and the journal's
// and the book's title (title, for a title without identifiers). It
// reads no PubMed id (pmid).
var DefaultOpenURLOptions = []string{"doi", "journal-title", "book-title"}

// linksHead starts an institutional_links.xml.
const linksHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!DOCTYPE institutional_links PUBLIC "-//GOOGLE//Institutional Links 1.0//EN" "http://scholar.google.com/scholar/institutional_links.dtd">
`

// linksXML is the document's element, in the order of the samples.
type linksXML struct {
	XMLName             xml.Name `xml:"institutional_links"`
	Institution         string   `xml:"institution"`
	Keywords            string   `xml:"keywords,omitempty"`
	Contact             string   `xml:"contact,omitempty"`
	ElectronicLinkLabel string   `xml:"electronic_link_label,omitempty"`
	OpenURLBase         string   `xml:"openurl_base"`
	OpenURLOptions      []string `xml:"openurl_option"`
	Holdings            []string `xml:"electronic_holdings>url"`
}

// Marshal returns the document; an error says which required field is
// missing.
func (l Links) Marshal() ([]byte, error) {
	switch {
	case l.Institution == "":
		return nil, fmt.Errorf("institutional links: no institution")
	case l.OpenURLBase == "":
		return nil, fmt.Errorf("institutional links: no openurl_base")
	case len(l.Holdings) == 0:
		return nil, fmt.Errorf("institutional links: no holdings file")
	}
	var b bytes.Buffer
	b.WriteString(linksHead)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(linksXML{Institution: l.Institution, Keywords: l.Keywords, Contact: l.Contact,
		ElectronicLinkLabel: l.ElectronicLinkLabel, OpenURLBase: l.OpenURLBase, OpenURLOptions: l.OpenURLOptions, Holdings: l.Holdings}); err != nil {
		return nil, fmt.Errorf("institutional links: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
