package scholar

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLinksMarshal(t *testing.T) {
	l := Links{
		Institution:         "Bibliothèque <Royale> & Co\x01",
		ElectronicLinkLabel: "Full text @ B&R",
		OpenURLBase:         "https://kb.example/openurl/c1.main.az",
		OpenURLOptions:      DefaultOpenURLOptions,
		Holdings:            []string{"https://kb.example/scholar/c1.main.az/holdings-1.xml", "https://kb.example/scholar/c1.main.az/holdings-2.xml"},
	}
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+
		`<!DOCTYPE institutional_links PUBLIC "-//GOOGLE//Institutional Links 1.0//EN" "http://scholar.google.com/scholar/institutional_links.dtd">`)) {
		t.Errorf("no declaration and DOCTYPE: %.200s", b)
	}
	var got struct {
		XMLName     xml.Name `xml:"institutional_links"`
		Institution string   `xml:"institution"`
		Keywords    *string  `xml:"keywords"`
		Contact     *string  `xml:"contact"`
		Label       string   `xml:"electronic_link_label"`
		Base        string   `xml:"openurl_base"`
		Options     []string `xml:"openurl_option"`
		URLs        []string `xml:"electronic_holdings>url"`
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	if err := d.Decode(&got); err != nil {
		t.Fatalf("does not parse: %v\n%s", err, b)
	}
	if got.Institution != "Bibliothèque <Royale> & Co\uFFFD" || got.Label != l.ElectronicLinkLabel || got.Base != l.OpenURLBase ||
		got.Keywords != nil || got.Contact != nil {
		t.Errorf("read back %+v", got)
	}
	if diff := cmp.Diff(l.OpenURLOptions, got.Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(l.Holdings, got.URLs); diff != "" {
		t.Errorf("holdings (-want +got):\n%s", diff)
	}
	// The elements come in the samples' order.
	order := []string{"<institution>", "<electronic_link_label>", "<openurl_base>", "<openurl_option>", "<electronic_holdings>"}
	last := -1
	for _, e := range order {
		i := bytes.Index(b, []byte(e))
		if i <= last {
			t.Errorf("%s at %d, after the element before it (%d)", e, i, last)
		}
		last = i
	}
}

func TestLinksMarshalRequired(t *testing.T) {
	ok := Links{Institution: "L", OpenURLBase: "https://x/openurl/a.b.c", Holdings: []string{"https://x/h-1.xml"}}
	if _, err := ok.Marshal(); err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]Links{
		"no institution": {OpenURLBase: ok.OpenURLBase, Holdings: ok.Holdings},
		"no base":        {Institution: "L", Holdings: ok.Holdings},
		"no holdings":    {Institution: "L", OpenURLBase: ok.OpenURLBase},
	} {
		if _, err := l.Marshal(); err == nil {
			t.Errorf("%s: marshalled", name)
		}
	}
}
