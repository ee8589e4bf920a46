package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver kbinfo reads with
)

// The helper commands of the benchmark script (bench/run): each does one
// measurement or look-up and prints its result as one JSON object.
const toolsHelp = `Helper commands (used by bench/run; all but summary print one JSON object):

  kbbench startup --url URL [--header 'Name: value'] [--poll 10ms] [--log FILE] -- COMMAND [ARGS...]
      starts COMMAND (e.g. kbserver serve --db kb.db --addr 127.0.0.1:8090),
      polls URL every --poll until its first 2xx answer, prints the time from
      the start of the process to that answer, then stops the process
      (SIGTERM, SIGKILL after 20s): {"ms":…,"status":200,"polls":…}
  kbbench kbinfo --db FILE [--custid ID]
      reads (read only) the knowledge base's counts, its largest package, the
      largest package in which customer ID has no state (the one to select
      and deselect), and a title with several resources
  kbbench snapshot [--url URL] --custid ID --key KEY [--poll 10ms]
      POSTs holdings and polls holdings/status until Completed:
      {"seconds":…,"status":"Completed","total_count":…}
  kbbench summary [--p99-target 15ms] [--json FILE] RUN.json...
      merges the --json results of several runs of the title searches into
      Markdown tables of medians (per operation, per search type, HTTP /
      store)
`

// runTool runs the helper command name; ok is false when name is none.
func runTool(ctx context.Context, name string, args []string, stdout, stderr io.Writer) (ok bool, err error) {
	switch name {
	case "startup":
		return true, runStartup(ctx, args, stdout, stderr)
	case "kbinfo":
		return true, runKBInfo(ctx, args, stdout, stderr)
	case "snapshot":
		return true, runSnapshot(ctx, args, stdout, stderr)
	case "summary":
		return true, runSummary(args, stdout, stderr)
	}
	return false, nil
}

// toolFlags returns the flag set of helper command name.
func toolFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("kbbench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage of kbbench %s:\n", name)
		fs.PrintDefaults()
	}
	return fs
}

// parseTool parses a helper's flags; help is (true, nil).
func parseTool(fs *flag.FlagSet, args []string) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, &usageError{msg: err.Error(), reported: true}
	}
	return false, nil
}

func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// headerFlags is a repeatable "Name: value" flag.
type headerFlags []string

func (h *headerFlags) String() string { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(v string) error {
	if name, _, ok := strings.Cut(v, ":"); !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want Name: value, got %q", v)
	}
	*h = append(*h, v)
	return nil
}

// startupResult is what kbbench startup prints.
type startupResult struct {
	MS     float64 `json:"ms"`
	Status int     `json:"status"`
	Polls  int     `json:"polls"`
}

func runStartup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := toolFlags("startup", stderr)
	u := fs.String("url", "", "`URL` to poll until it answers 2xx (required)")
	var headers headerFlags
	fs.Var(&headers, "header", "request `header` \"Name: value\" (repeatable)")
	poll := fs.Duration("poll", 10*time.Millisecond, "polling `interval`")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after this `duration`")
	logFile := fs.String("log", "", "append the command's output to this `file` (default: discarded)")
	if help, err := parseTool(fs, args); help || err != nil {
		return err
	}
	cmdArgs := fs.Args()
	switch {
	case *u == "":
		return usageErrorf("startup: --url is required")
	case len(cmdArgs) == 0:
		return usageErrorf("startup: no command to start (give it after --)")
	case *poll <= 0 || *timeout <= 0:
		return usageErrorf("startup: --poll and --timeout must be positive")
	}
	req, err := http.NewRequest(http.MethodGet, *u, nil)
	if err != nil {
		return usageErrorf("startup: --url: %v", err)
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	out := io.Discard
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	cmd := exec.Command(cmdArgs[0], cmdArgs[1:]...)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("startup: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	res := startupResult{}
	lastErr := "no answer"
	for {
		res.Polls++
		resp, err := client.Do(req.Clone(ctx))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				res.MS = since(start)
				res.Status = resp.StatusCode
				break
			}
			lastErr = resp.Status
		} else {
			lastErr = err.Error()
		}
		if time.Since(start) > *timeout {
			stop()
			return fmt.Errorf("startup: no 2xx answer from %s within %s (last: %s)", *u, *timeout, lastErr)
		}
		select {
		case err := <-exited:
			return fmt.Errorf("startup: %s exited before answering (%v; last: %s)", cmdArgs[0], err, lastErr)
		case <-ctx.Done():
			stop()
			return ctx.Err()
		case <-time.After(*poll):
		}
	}
	stop()
	return printJSON(stdout, res)
}

// kbInfo is what kbbench kbinfo prints.
type kbInfo struct {
	DBBytes   int64          `json:"db_bytes"`  // the file and its WAL
	WALBytes  int64          `json:"wal_bytes"` // the WAL alone
	Titles    int64          `json:"titles"`
	Resources int64          `json:"resources"`
	Packages  int64          `json:"packages"` // managed packages
	Vendors   int64          `json:"vendors"`  // managed vendors
	Customers []customerInfo `json:"customers"`
	Largest   *packageInfo   `json:"largest_package"`
	// Select is the largest managed package in which --custid has no
	// state (no package or title row): selecting and then deselecting it
	// leaves the customer as it was.
	Select      *packageInfo `json:"select_package,omitempty"`
	SelectNotes []string     `json:"select_notes,omitempty"`
	Title       *titleInfo   `json:"title"`
}

type customerInfo struct {
	ID               string `json:"id"`
	SelectedPackages int64  `json:"selected_packages"`
	TitleExceptions  int64  `json:"title_exceptions"`
}

type packageInfo struct {
	ID         int64  `json:"id"`
	VendorID   int64  `json:"vendor_id"`
	TitleCount int64  `json:"title_count"`
	Name       string `json:"name"`
}

type titleInfo struct {
	ID        int64 `json:"id"`
	Resources int64 `json:"resources"`
}

func runKBInfo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := toolFlags("kbinfo", stderr)
	db := fs.String("db", "", "knowledge-base SQLite `file` (required; opened read only)")
	cust := fs.String("custid", "", "customer `id` for select_package")
	if help, err := parseTool(fs, args); help || err != nil {
		return err
	}
	if *db == "" || fs.NArg() > 0 {
		return usageErrorf("kbinfo: give --db FILE and no arguments")
	}
	info, err := readKBInfo(ctx, *db, *cust)
	if err != nil {
		return err
	}
	return printJSON(stdout, info)
}

// openReadOnly opens the SQLite file path read only (mode=ro and
// query_only) on one connection, with the page cache and settings of the
// store's readers.
func openReadOnly(path string) (*sql.DB, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	for _, p := range []string{"busy_timeout(10000)", "query_only(1)", "temp_store(MEMORY)", "cache_size(-16384)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// readKBInfo reads the knowledge base of path, read only.
func readKBInfo(ctx context.Context, path, custID string) (kbInfo, error) {
	var info kbInfo
	st, err := os.Stat(path)
	if err != nil {
		return info, err
	}
	info.DBBytes = st.Size()
	if w, err := os.Stat(path + "-wal"); err == nil {
		info.WALBytes = w.Size()
		info.DBBytes += w.Size()
	}
	db, err := openReadOnly(path)
	if err != nil {
		return info, err
	}
	defer db.Close()
	for _, c := range []struct {
		dst *int64
		q   string
	}{
		{&info.Titles, `SELECT count(*) FROM titles`},
		{&info.Resources, `SELECT count(*) FROM resources`},
		{&info.Packages, `SELECT count(*) FROM packages WHERE customer_id IS NULL`},
		{&info.Vendors, `SELECT count(*) FROM vendors WHERE customer_id IS NULL`},
	} {
		if err := db.QueryRowContext(ctx, c.q).Scan(c.dst); err != nil {
			return info, fmt.Errorf("%s: %s: %w", path, c.q, err)
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT c.id,
		(SELECT count(*) FROM customer_packages cp WHERE cp.customer_id = c.id AND cp.selected = 1),
		(SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = c.id)
		FROM customers c ORDER BY c.id`)
	if err != nil {
		return info, fmt.Errorf("%s: customers: %w", path, err)
	}
	for rows.Next() {
		var c customerInfo
		if err := rows.Scan(&c.ID, &c.SelectedPackages, &c.TitleExceptions); err != nil {
			rows.Close()
			return info, err
		}
		info.Customers = append(info.Customers, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return info, err
	}

	// The largest packages, biggest first (ties by id).
	rows, err = db.QueryContext(ctx, `SELECT id, vendor_id, title_count, name FROM packages
		WHERE customer_id IS NULL ORDER BY title_count DESC, id LIMIT 50`)
	if err != nil {
		return info, fmt.Errorf("%s: packages: %w", path, err)
	}
	var big []packageInfo
	for rows.Next() {
		var p packageInfo
		if err := rows.Scan(&p.ID, &p.VendorID, &p.TitleCount, &p.Name); err != nil {
			rows.Close()
			return info, err
		}
		big = append(big, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return info, err
	}
	if len(big) > 0 {
		info.Largest = &big[0]
	}
	if custID != "" {
		for i := range big {
			var state bool
			err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM customer_packages WHERE customer_id = ?1 AND package_id = ?2)
				OR EXISTS (SELECT 1 FROM customer_resources WHERE customer_id = ?1 AND package_id = ?2)`, custID, big[i].ID).Scan(&state)
			if err != nil {
				return info, fmt.Errorf("%s: state of package %d: %w", path, big[i].ID, err)
			}
			if !state {
				info.Select = &big[i]
				break
			}
			info.SelectNotes = append(info.SelectNotes, fmt.Sprintf("customer %s has state in package %d (%d titles): not used", custID, big[i].ID, big[i].TitleCount))
		}
	}

	// A managed title with the most resources among the first 20,000.
	var t titleInfo
	err = db.QueryRowContext(ctx, `SELECT r.title_id, count(*) AS n FROM resources r
		WHERE r.title_id IN (SELECT id FROM titles WHERE customer_id IS NULL ORDER BY id LIMIT 20000)
		GROUP BY r.title_id ORDER BY n DESC, r.title_id LIMIT 1`).Scan(&t.ID, &t.Resources)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return info, fmt.Errorf("%s: a title: %w", path, err)
	default:
		info.Title = &t
	}
	return info, nil
}

// snapshotResult is what kbbench snapshot prints.
type snapshotResult struct {
	Seconds    float64 `json:"seconds"`
	Status     string  `json:"status"`
	TotalCount int     `json:"total_count"`
	Polls      int     `json:"polls"`
	Waited     float64 `json:"waited_seconds,omitempty"` // for a build in progress before the POST
}

func runSnapshot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := toolFlags("snapshot", stderr)
	o := options{}
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "base `URL` of the running kbserver")
	fs.StringVar(&o.custID, "custid", "", "customer `id` (required)")
	fs.StringVar(&o.key, "key", "", "API `key` of the customer (required)")
	poll := fs.Duration("poll", 10*time.Millisecond, "status polling `interval`")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this `duration`")
	if help, err := parseTool(fs, args); help || err != nil {
		return err
	}
	if o.custID == "" || o.key == "" || fs.NArg() > 0 {
		return usageErrorf("snapshot: give --custid and --key, and no arguments")
	}
	o.url = strings.TrimRight(o.url, "/")
	a := &apiClient{http: &http.Client{Timeout: 2 * time.Minute}, o: o}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var res snapshotResult
	status := func() (string, int, error) {
		var st struct {
			Status     string `json:"status"`
			TotalCount int    `json:"totalCount"`
		}
		err := a.do(ctx, http.MethodGet, "holdings/status", nil, &st)
		return st.Status, st.TotalCount, err
	}
	wait := func(while string) (string, int, error) {
		for {
			s, n, err := status()
			res.Polls++
			if err != nil || s != while {
				return s, n, err
			}
			select {
			case <-ctx.Done():
				return s, n, fmt.Errorf("snapshot: still %q after %s", s, o.timeout)
			case <-time.After(*poll):
			}
		}
	}
	t0 := time.Now()
	if s, _, err := wait("In Progress"); err != nil {
		return err
	} else if s == "In Progress" {
		return errors.New("snapshot: a build in progress did not end")
	}
	res.Waited = time.Since(t0).Seconds()
	if res.Waited < 0.001 {
		res.Waited = 0
	}
	res.Polls = 0
	start := time.Now()
	if err := a.do(ctx, http.MethodPost, "holdings", nil, nil); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	s, n, err := wait("In Progress")
	if err != nil {
		return err
	}
	res.Seconds = time.Since(start).Seconds()
	res.Status, res.TotalCount = s, n
	if s != "Completed" {
		printJSON(stdout, res)
		return fmt.Errorf("snapshot: the build ended %q", s)
	}
	return printJSON(stdout, res)
}
