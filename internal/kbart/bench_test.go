package kbart

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// benchFile generates a KBART file of n rows that looks like a publisher
// list: mostly clean rows, serials and monographs, some non-ASCII titles,
// and a few rows that need repairs (about one in ten).
func benchFile(n int) []byte {
	var b bytes.Buffer
	w := NewWriter(&b, "bestppn")
	issns := []string{"0317-8471", "2434-561X", "1873-4502", "0886-3350", "1525-2027"}
	isbns := []string{"9780306406157", "9789382473008", "9780804429573"}
	for i := range n {
		var v [NumFields + 1]string
		if i%3 == 0 {
			v[PublicationTitle] = fmt.Sprintf("Handbook of Applied Things, volume %d", i)
			v[PrintIdentifier] = isbns[i%len(isbns)]
			v[OnlineIdentifier] = isbns[(i+1)%len(isbns)]
			v[PublicationType] = "monograph"
			v[DateMonographPublishedPrint] = "2015"
			v[DateMonographPublishedOnline] = "2016-03-01"
			v[FirstAuthor] = "Dupont"
			v[MonographEdition] = "2"
		} else {
			v[PublicationTitle] = fmt.Sprintf("Journal für Mathematik und Physik — Série %d", i)
			v[PrintIdentifier] = issns[i%len(issns)]
			v[OnlineIdentifier] = issns[(i+2)%len(issns)]
			v[PublicationType] = "serial"
			v[DateFirstIssueOnline] = "1997-01-01"
			v[NumFirstVolOnline] = "1"
			v[NumFirstIssueOnline] = "1"
			v[EmbargoInfo] = "P1Y"
		}
		v[TitleURL] = fmt.Sprintf("https://www.example.org/journal/%d", i)
		v[TitleID] = fmt.Sprintf("ID%06d", i)
		v[CoverageDepth] = "fulltext"
		v[PublisherName] = "Example Publishing Ltd"
		v[AccessType] = "P"
		v[NumFields] = fmt.Sprintf("%09d", i)
		switch i % 10 {
		case 4:
			v[PublicationType] = "Serial"
		case 7:
			v[DateFirstIssueOnline] = "01/02/1999"
		}
		if err := w.Write(v[:]); err != nil {
			panic(err)
		}
	}
	if err := w.Flush(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// BenchmarkReader measures the reader alone on an in-memory file and
// reports rows per second.
func BenchmarkReader(b *testing.B) {
	const rows = 20000
	data := benchFile(rows)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	total := 0
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			total++
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "rows/s")
}
