package storetest

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// Fixture is a small knowledge base shared by the read tests:
//
//	Alpha Press (vendor)
//	  Alpha Journals (ejournal): Journal of Testing, Annals of Software Quality, Zebra Studies
//	  Alpha Books (ebook): Learning Go (ISBN-13), Go in Practice (ISBN-10 print)
//	Beta Aggregator (vendor)
//	  Beta Complete (aggregatedfulltext): Journal of Testing (same ISSN), Newsletter without identifiers, Learning Go (ISBN-10 form)
//
// Customers: "c1" (with key "key-c1") and "c2" (with key "key-c2").
type Fixture struct {
	AlphaVendor, BetaVendor             int64
	AlphaJournals, AlphaBooks, BetaFull int64
	C1Vendor                            int64
}

// Journal of Testing's ISSNs; Learning Go's ISBNs.
const (
	TestingPrintISSN  = "0317-8471"
	TestingOnlineISSN = "1050-124X"
	GoISBN13          = "978-0-306-40615-7"
	GoISBN10          = "0-306-40615-2"
)

// LoadFixture fills an empty store with the fixture.
func LoadFixture(t testing.TB, s kb.Store) Fixture {
	t.Helper()
	ctx := context.Background()
	var f Fixture
	r := Import(t, s, "Alpha Press", "Alpha Journals", kb.ContentEJournal, []Row{
		{Title: "Journal of Testing", Print: TestingPrintISSN, Online: TestingOnlineISSN, First: "1990-01-01", Last: "1999-12-31",
			URL: "https://alpha.example/jot", Publisher: "Alpha Press", Type: "serial", Subjects: []string{"Computer Science", "Quality Assurance"}},
		{Title: "Journal of Testing", Print: TestingPrintISSN, Online: TestingOnlineISSN, First: "2005-01-01",
			URL: "https://alpha.example/jot", Publisher: "Alpha Press", Type: "serial", Subjects: []string{"Computer Science", "Quality Assurance"}},
		{Title: "Annals of Software Quality", Online: "2049-3630", First: "2001", URL: "https://alpha.example/asq",
			Publisher: "Alpha Press", Type: "serial", Embargo: "P1Y", Subjects: []string{"Software Engineering"}},
		{Title: "Zebra Studies", Print: "0000-0019", First: "1980-05", URL: "https://alpha.example/zs", Publisher: "Savanna Society", Type: "serial",
			Subjects: []string{"Zoology"}},
	})
	f.AlphaVendor, f.AlphaJournals = r.VendorID, r.PackageID
	f.AlphaBooks = Import(t, s, "Alpha Press", "Alpha Books", kb.ContentEBook, []Row{
		{Title: "Learning Go", Online: GoISBN13, URL: "https://alpha.example/go", Publisher: "Gopher Books", Type: "monograph", Subjects: []string{"Programming"}},
		{Title: "Go in Practice", Print: "0-201-53082-1", URL: "https://alpha.example/gip", Publisher: "Gopher Books", Type: "monograph"},
	}).PackageID
	r = Import(t, s, "Beta Aggregator", "Beta Complete", kb.ContentAggregatedFullText, []Row{
		{Title: "Journal of Testing", Print: "03178471", First: "1995", URL: "https://beta.example/jot", Publisher: "Alpha Press", Type: "serial"},
		{Title: "The Weekly Newsletter", First: "2010-01-01", URL: "https://beta.example/wn", Publisher: "Beta Media", Type: "serial"},
		{Title: "Learning Go", Print: GoISBN10, URL: "https://beta.example/go", Publisher: "Gopher Books", Type: "monograph"},
	})
	f.BetaVendor, f.BetaFull = r.VendorID, r.PackageID
	c1 := must[kb.Customer](t)(s.AddCustomer(ctx, "c1", "Customer One"))
	f.C1Vendor = c1.VendorID
	must[kb.Customer](t)(s.AddCustomer(ctx, "c2", "Customer Two"))
	for _, k := range []struct{ cust, key string }{{"c1", "key-c1"}, {"c2", "key-c2"}} {
		if err := s.AddAPIKey(ctx, k.cust, kb.HashAPIKey(k.key), kb.Production); err != nil {
			t.Fatal(err)
		}
	}
	return f
}
