package feeds_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/testdb"
)

// The feed benchmarks of BENCHMARKS.md (issue 37's targets). Each runs a
// baseline in the same run, interleaved with what it measures, and
// reports the machine's load average at its end (load-avg):
//
//	go test -run '^$' -bench Feed -benchtime 3x -timeout 60m ./internal/feeds
//	KBSERVER_TEST_STORE=postgres KBSERVER_TEST_POSTGRES=postgres://… go test -run '^$' -bench Feed -benchtime 3x -timeout 60m ./internal/feeds
//
// The package is a generated 100,000-row KBART file (kbserver gen kbart);
// its version k is version k-1 with 2% of its titles gone, 2% new
// titles and 5% of its titles with a new title_url. The CPU profile's
// samples carry the label phase (setup, direct, feed), so that
// `go tool pprof -tagfocus phase=feed` shows the feed's runs alone.

// feedRows is the size of the benchmarks' package: 100,000 rows, or
// another size for the growth figures (-feed-rows 300000, 1000000).
var feedRows = flag.Int("feed-rows", 100_000, "rows of the feed benchmarks' generated package")

// The versions of the benchmarks' package.
const (
	goneShare   = 50 // version k drops 1/50 of the first version's titles
	urlShare    = 20 // and gives 1/20 of them a new title_url
	maxVersions = 14 // the most versions (each drops and edits other titles)
	// stride is a prime: base title j is the (j*stride mod titles)-th of
	// the permutation (it must not divide the number of titles).
	stride = 7919
)

// newRows is the rows a version adds.
func newRows() int { return *feedRows / goneShare }

// benchPool is the rows the versions are made of: gen's KBART rows of
// seed 1, grouped into titles (a title of two coverage ranges has two
// rows); base makes version 0, extra the new titles of later versions.
// Which titles a version drops or edits follows their place in a
// permutation of base (pos), so that no title is dropped or edited
// twice and none is both.
type benchPool struct {
	header      string
	base, extra [][]string // titles, each its rows without line ends
}

var (
	poolOnce sync.Once
	pool     *benchPool
	poolErr  error
)

// thePool generates the pool once per test binary.
func thePool(b *testing.B) *benchPool {
	b.Helper()
	poolOnce.Do(func() {
		var buf bytes.Buffer
		benchRows := *feedRows
		if poolErr = gen.WriteKBART(&buf, benchRows+maxVersions*newRows()+100, 1); poolErr != nil {
			return
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		pool = &benchPool{header: lines[0], base: byTitle(lines[1 : 1+benchRows]), extra: byTitle(lines[1+benchRows:])}
		if m := len(pool.base); m%stride == 0 || maxVersions*(m/goneShare+m/urlShare) > m {
			poolErr = fmt.Errorf("%d titles: choose another stride or fewer versions", m)
		}
	})
	if poolErr != nil {
		b.Fatalf("generate the KBART rows: %v", poolErr)
	}
	return pool
}

// byTitle groups consecutive rows of one title_id.
func byTitle(rows []string) [][]string {
	var titles [][]string
	last := ""
	for _, r := range rows {
		id := field(r, kbart.TitleID)
		if len(titles) > 0 && id != "" && id == last {
			titles[len(titles)-1] = append(titles[len(titles)-1], r)
		} else {
			titles = append(titles, []string{r})
		}
		last = id
	}
	return titles
}

// field returns field f of a tab-separated row.
func field(row string, f kbart.Field) string {
	fs := strings.Split(row, "\t")
	if int(f) < len(fs) {
		return fs[f]
	}
	return ""
}

// pos is base title j's place in the permutation (stride is prime, and
// no divisor of the number of titles).
func (p *benchPool) pos(j int) int { return j * stride % len(p.base) }

// dropped reports whether base title j is gone from version k: versions
// drop the permutation's first titles, 1/50 each.
func (p *benchPool) dropped(j, k int) bool { return p.pos(j) < k*(len(p.base)/goneShare) }

// edition returns the version that gave base title j the title_url it has
// in version k, or 0 for its first: versions edit the permutation's last
// titles, 1/20 each.
func (p *benchPool) edition(j, k int) int {
	m := len(p.base)
	if v := (m-1-p.pos(j))/(m/urlShare) + 1; v <= k {
		return v
	}
	return 0
}

// version returns version k of the package as a KBART file, and its
// number of rows.
func (p *benchPool) version(b *testing.B, k int) ([]byte, int) {
	b.Helper()
	if k > maxVersions {
		b.Fatalf("version %d: the benchmark makes at most %d versions; ask for fewer iterations (-benchtime)", k, maxVersions)
	}
	var out bytes.Buffer
	out.Grow(24 << 20)
	out.WriteString(p.header)
	out.WriteByte('\n')
	rows := 0
	for j, t := range p.base {
		if p.dropped(j, k) {
			continue
		}
		e := p.edition(j, k)
		for _, r := range t {
			if e > 0 {
				fs := strings.Split(r, "\t")
				fs[kbart.TitleURL] += "?edition=" + strconv.Itoa(e)
				r = strings.Join(fs, "\t")
			}
			out.WriteString(r)
			out.WriteByte('\n')
			rows++
		}
	}
	added := 0
	for _, t := range p.extra {
		if added >= k*newRows() {
			break
		}
		for _, r := range t {
			out.WriteString(r)
			out.WriteByte('\n')
		}
		added += len(t)
	}
	return out.Bytes(), rows + added
}

// benchDeps are the runs' dependencies, with the log discarded.
func benchDeps(b *testing.B, st feeds.Store, srv *server) feeds.Deps {
	return feeds.Deps{Store: st, Client: srv.Client(), TempDir: b.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// benchFeed adds the package's feed to st, at srv, with the default
// review share.
func benchFeed(b *testing.B, st feeds.Store, srv *server) kb.Feed {
	b.Helper()
	f, err := st.AddFeed(b.Context(), kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL + "/kbart.txt?token=" + secret, MaxRemoval: 20})
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// runFeed claims feed f and runs it, failing unless its outcome is want.
func runFeed(b *testing.B, d feeds.Deps, f kb.Feed, want kb.FeedOutcome) kb.FeedRun {
	b.Helper()
	ctx := b.Context()
	f, ok, err := d.Store.ClaimFeed(ctx, f.ID, time.Now(), "bench", time.Minute)
	if err != nil || !ok {
		b.Fatalf("claim the feed: %v, %v", ok, err)
	}
	r, err := feeds.Run(ctx, d, f, "bench")
	if err != nil {
		b.Fatal(err)
	}
	if r.Outcome != want {
		b.Fatalf("run: %s (%q), want %s", r.Outcome, r.Message, want)
	}
	return r
}

// importDirect imports file into st as `import kbart` does.
func importDirect(b *testing.B, st kb.Importer, file []byte) kb.ImportResult {
	b.Helper()
	kr, err := kbart.NewReader(bytes.NewReader(file))
	if err != nil {
		b.Fatal(err)
	}
	src := kbart.NewSource(kbart.SourceFile{Name: "direct", Reader: kr})
	spec := kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: kb.ContentUnknown, PackageType: kb.PackageSelectable,
		ExtraColumns: src.ExtraColumns()}
	res, err := st.ImportPackage(b.Context(), spec, src.Next)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// phase runs fn with the CPU profile's samples labelled phase=name.
func phase(name string, fn func()) {
	pprof.Do(context.Background(), pprof.Labels("phase", name), func(context.Context) { fn() })
}

// BenchmarkFeedUpdate: one iteration is the update of the 100,000-row
// package to its next version by a feed run (fetched from a test server
// with an ETag, spooled, dry-run, imported: s/update, the timed part) and,
// as the baseline, by a direct import of the same file into a second
// store holding the same package (s/direct, untimed); ratio is their
// quotient.
func BenchmarkFeedUpdate(b *testing.B) {
	p := thePool(b)
	v0, _ := p.version(b, 0)
	var direct, fed feeds.Store
	phase("setup", func() {
		direct, fed = store(b), store(b)
		importDirect(b, direct, v0)
		importDirect(b, fed, v0)
	})
	srv := newServer(b)
	d := benchDeps(b, fed, srv)
	f := benchFeed(b, fed, srv)
	var feedTime, directTime time.Duration
	rows := 0
	b.ResetTimer()
	b.StopTimer()
	for i := range b.N {
		file, n := p.version(b, i+1)
		srv.serve(version{body: file, etag: fmt.Sprintf(`"v%d"`, i+1)})
		phase("direct", func() {
			t0 := time.Now()
			importDirect(b, direct, file)
			directTime += time.Since(t0)
		})
		phase("feed", func() {
			b.StartTimer()
			t0 := time.Now()
			r := runFeed(b, d, f, kb.FeedApplied)
			feedTime += time.Since(t0)
			b.StopTimer()
			if i == 0 {
				b.Logf("run: %s", r.Message)
			}
		})
		rows += n
	}
	b.ReportMetric(feedTime.Seconds()/float64(b.N), "s/update")
	b.ReportMetric(directTime.Seconds()/float64(b.N), "s/direct")
	b.ReportMetric(feedTime.Seconds()/directTime.Seconds(), "ratio")
	b.ReportMetric(float64(rows)/feedTime.Seconds(), "rows/s")
	reportLoad(b)
}

// unchangedBatch is the number of unchanged runs (and bare requests) in one
// iteration of BenchmarkFeedUnchanged, so that its p99 has samples enough
// at a few iterations.
const unchangedBatch = 100

// BenchmarkFeedUnchanged: one iteration is 100 runs of a feed whose file
// has not changed (the server answers 304), each timed end to end (the
// claim, the conditional GET, the record of the run: run-p50-ms,
// run-p99-ms) and, as the baseline, 100 bare conditional GETs of the same
// server answering 304 (get-p50-ms, get-p99-ms), interleaved with them.
// The package is the generated package's first 2,000 titles.
func BenchmarkFeedUnchanged(b *testing.B) {
	p := thePool(b)
	var file bytes.Buffer
	file.WriteString(p.header + "\n")
	for _, t := range p.base[:2000] {
		for _, r := range t {
			file.WriteString(r + "\n")
		}
	}
	st := store(b)
	srv := newServer(b)
	srv.serve(version{body: file.Bytes(), etag: `"v0"`})
	d := benchDeps(b, st, srv)
	f := benchFeed(b, st, srv)
	runFeed(b, d, f, kb.FeedApplied)
	client := srv.Client()
	get := func() {
		req, err := http.NewRequestWithContext(b.Context(), http.MethodGet, f.URL, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("If-None-Match", `"v0"`)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			b.Fatalf("bare GET: %s, want 304", resp.Status)
		}
	}
	var runs, gets []time.Duration
	b.ResetTimer()
	for range b.N {
		for range unchangedBatch {
			t0 := time.Now()
			get()
			gets = append(gets, time.Since(t0))
			t0 = time.Now()
			r := runFeed(b, d, f, kb.FeedUnchanged)
			runs = append(runs, time.Since(t0))
			if r.Status != http.StatusNotModified {
				b.Fatalf("unchanged run: status %d, want 304", r.Status)
			}
		}
	}
	b.StopTimer()
	reportLatencies(b, "run", runs)
	reportLatencies(b, "get", gets)
	reportLoad(b)
}

// BenchmarkFeedWrites: a customer selects and deselects a title every 10
// ms through one store while another store over the same database updates
// the package: one iteration is a direct import of the next version
// (import-p50-ms … the writes' latencies during it) and then a feed run
// of the version after (feed-p50-ms …). idle-… are the writes' latencies
// for 3 s with neither, before the first iteration. It also reports each
// update's seconds (s/direct, s/update), which the writes slow down.
// The approach is internal/store's benchReimport's.
func BenchmarkFeedWrites(b *testing.B) {
	p := thePool(b)
	ctx := b.Context()
	dsn := testdb.NewDSN(b)
	server, importer := testdb.OpenDSN(b, dsn), testdb.OpenDSN(b, dsn)
	fed, ok := importer.(feeds.Store)
	if !ok {
		b.Fatalf("%T does not keep feeds", importer)
	}
	v0, _ := p.version(b, 0)
	var res kb.ImportResult
	phase("setup", func() { res = importDirect(b, importer, v0) })
	if _, err := server.AddCustomer(ctx, "lib", "Library"); err != nil {
		b.Fatal(err)
	}
	titles := customerTitles(b, server, p, res)
	srv := newServer(b)
	d := benchDeps(b, fed, srv)
	f := benchFeed(b, fed, srv)

	// The customer selects and deselects titles every 10 ms.
	writes := func(stop <-chan struct{}) []time.Duration {
		var lat []time.Duration
		for i := 0; ; i++ {
			select {
			case <-stop:
				return lat
			case <-time.After(10 * time.Millisecond):
			}
			t0 := time.Now()
			err := server.UpdateResource(ctx, "lib", res.VendorID, res.PackageID, titles[i%len(titles)], kb.ResourceUpdate{Selected: i%2 == 0})
			if err != nil {
				b.Errorf("write: %v", err)
			}
			lat = append(lat, time.Since(t0))
		}
	}
	measure := func(run func()) []time.Duration {
		stop := make(chan struct{})
		var lat []time.Duration
		var wg sync.WaitGroup
		wg.Go(func() { lat = writes(stop) })
		run()
		close(stop)
		wg.Wait()
		return lat
	}
	idle := measure(func() { time.Sleep(3 * time.Second) })
	var during, feeding []time.Duration
	var directTime, feedTime time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		file, _ := p.version(b, 2*i+1)
		next, _ := p.version(b, 2*i+2)
		srv.serve(version{body: next, etag: fmt.Sprintf(`"v%d"`, 2*i+2)})
		b.StartTimer()
		during = append(during, measure(func() {
			phase("direct", func() {
				t0 := time.Now()
				importDirect(b, importer, file)
				directTime += time.Since(t0)
			})
		})...)
		feeding = append(feeding, measure(func() {
			phase("feed", func() {
				t0 := time.Now()
				runFeed(b, d, f, kb.FeedApplied)
				feedTime += time.Since(t0)
			})
		})...)
	}
	b.StopTimer()
	reportLatencies(b, "idle", idle)
	reportLatencies(b, "import", during)
	reportLatencies(b, "feed", feeding)
	b.ReportMetric(directTime.Seconds()/float64(b.N), "s/direct")
	b.ReportMetric(feedTime.Seconds()/float64(b.N), "s/update")
	reportLoad(b)
}

// customerTitles returns the ids of up to 100 titles of the package's
// first pages that no version drops, for the customer to write to.
func customerTitles(b *testing.B, st kb.Store, p *benchPool, res kb.ImportResult) []int64 {
	b.Helper()
	gone := map[string]bool{} // the names of the titles some version drops
	for j, t := range p.base {
		if p.dropped(j, maxVersions) {
			gone[field(t[0], kbart.PublicationTitle)] = true
		}
	}
	var ids []int64
	for n := 1; len(ids) < 100 && n <= 10; n++ {
		l, err := st.Titles(b.Context(), "lib", kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: kb.Page{Count: 100, Number: n}})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range l.Titles {
			if !gone[t.Name] && len(ids) < 100 {
				ids = append(ids, t.ID)
			}
		}
	}
	if len(ids) == 0 {
		b.Fatal("no title of the package stays in every version")
	}
	return ids
}

// reportLatencies reports the p50, p99 and max of lat in ms as
// name-p50-ms, name-p99-ms and name-max-ms.
func reportLatencies(b *testing.B, name string, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), name+"-p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), name+"-p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), name+"-max-ms")
}

// reportLoad reports the machine's load average of the last minute, where
// Linux tells it.
func reportLoad(b *testing.B) {
	s, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return
	}
	if l, err := strconv.ParseFloat(strings.Fields(string(s))[0], 64); err == nil {
		b.ReportMetric(l, "load-avg")
	}
}
