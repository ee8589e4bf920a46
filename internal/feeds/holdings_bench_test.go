package feeds_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// BenchmarkHoldingsFeed: a customer's holdings feed over the generated
// 100,000-row package (99,394 titles). The institution holds every other
// title (about 49,700); its file names a third of them without title_id
// (matched by ISSN or ISBN). The first run selects them all (s/first,
// untimed); then each iteration is a run of the file's next version, in
// which the titles j with j mod 50 = k flip (2% of the package's titles)
// and those of the version before flip back: a run selects or deselects
// 1,988 titles (the first) or about 3,976 (the others), timed (s/run). As the baseline in the same run, the store's part alone: the
// match of the file's rows (MatchHoldings, s/match) and the write of the
// selection (SetHoldings, s/set) for a second customer.
//
//	go test -run '^$' -bench HoldingsFeed -benchtime 5x ./internal/feeds
func BenchmarkHoldingsFeed(b *testing.B) {
	p := thePool(b)
	v0, _ := p.version(b, 0)
	st := store(b)
	importDirect(b, st, v0)
	if _, err := st.(kb.Store).AddCustomer(b.Context(), "c2", "Customer Two"); err != nil {
		b.Fatal(err)
	}
	held := func(j, k int) bool { return (j%2 == 0) != (k > 0 && j%50 == k%50) }
	file := func(k int) ([]byte, int) {
		var out bytes.Buffer
		out.WriteString(p.header + "\n")
		n := 0
		for j, t := range p.base {
			if !held(j, k) {
				continue
			}
			for _, r := range t {
				if j%3 == 0 {
					fs := strings.Split(r, "\t")
					fs[kbart.TitleID] = ""
					r = strings.Join(fs, "\t")
				}
				out.WriteString(r + "\n")
				n++
			}
		}
		return out.Bytes(), n
	}
	srv := newServer(b)
	d := benchDeps(b, st, srv)
	f, err := st.AddFeed(b.Context(), kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL + "/inst.txt?token=" + secret, MaxRemoval: 20,
		CustomerID: "c1", Holdings: true})
	if err != nil {
		b.Fatal(err)
	}
	first, _ := file(0)
	srv.serve(version{body: first, etag: `"h0"`})
	t0 := time.Now()
	r := runFeed(b, d, f, kb.FeedApplied)
	firstTime := time.Since(t0)
	b.Logf("first run: %s", r.Message)
	fp, _, err := st.FeedPackage(b.Context(), vendor, pkg)
	if err != nil {
		b.Fatal(err)
	}
	matchSet(b, st, fp, first) // c2 holds what c1 holds
	var runTime, matchTime, setTime time.Duration
	rows := 0
	b.ResetTimer()
	b.StopTimer()
	for i := range b.N {
		body, n := file(i + 1)
		srv.serve(version{body: body, etag: fmt.Sprintf(`"h%d"`, i+1)})
		b.StartTimer()
		t0 := time.Now()
		r := runFeed(b, d, f, kb.FeedApplied)
		runTime += time.Since(t0)
		b.StopTimer()
		if i == 0 {
			b.Logf("run: %s", r.Message)
		}
		rows += n
		m, w := matchSet(b, st, fp, body)
		matchTime, setTime = matchTime+m, setTime+w
	}
	b.ReportMetric(firstTime.Seconds(), "s/first") // after ResetTimer, which deletes reported metrics
	b.ReportMetric(runTime.Seconds()/float64(b.N), "s/run")
	b.ReportMetric(matchTime.Seconds()/float64(b.N), "s/match")
	b.ReportMetric(setTime.Seconds()/float64(b.N), "s/set")
	b.ReportMetric(float64(rows)/runTime.Seconds(), "rows/s")
	reportLoad(b)
}

// matchSet is the baseline of BenchmarkHoldingsFeed: the store's match of
// the holdings file body's rows and the write of customer c2's selection,
// timed apart.
func matchSet(b *testing.B, st feeds.Store, fp kb.FeedPackage, body []byte) (match, set time.Duration) {
	b.Helper()
	kr, err := kbart.NewReader(bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	var hrows []kb.HoldingsRow
	for {
		row, err := kr.Next()
		if err != nil {
			break
		}
		h := kb.HoldingsRow{ProviderID: row.Values[kbart.TitleID], Name: kb.Fold(row.Values[kbart.PublicationTitle])}
		for _, fld := range []kbart.Field{kbart.PrintIdentifier, kbart.OnlineIdentifier} {
			if v, ok := kb.NormalizeISSN(row.Values[fld]); ok {
				h.Norms = append(h.Norms, v)
			} else if v, ok := kb.NormalizeISBN(row.Values[fld]); ok {
				h.Norms = append(h.Norms, v)
			}
		}
		hrows = append(hrows, h)
	}
	t1 := time.Now()
	var ids []int64
	for start := 0; start < len(hrows); start += 2000 {
		got, err := st.MatchHoldings(b.Context(), fp.PackageID, hrows[start:min(start+2000, len(hrows))])
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, got...)
	}
	match = time.Since(t1)
	t2 := time.Now()
	if _, err := st.SetHoldings(b.Context(), "c2", fp.VendorID, fp.PackageID, ids, kb.HoldingsWrite{}); err != nil {
		b.Fatal(err)
	}
	return match, time.Since(t2)
}
