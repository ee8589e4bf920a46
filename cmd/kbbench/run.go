package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// options are the parsed command-line flags.
type options struct {
	url      string
	custID   string
	key      string
	profile  string
	password string
	clients  int
	duration time.Duration
	warmup   time.Duration
	timeout  time.Duration
	mix      string
	seed     int64
	count    int
	jsonFile string
	storeDB  string
}

// usageError is a mistake in the command line; kbbench exits with status 2
// for it.
type usageError struct {
	msg      string
	reported bool // the flag package has printed the message already
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// reportError prints err to w, unless it has been printed already, and
// returns the exit status: 2 for a usage error, 1 otherwise.
func reportError(w io.Writer, err error) int {
	var ue *usageError
	if errors.As(err, &ue) {
		if !ue.reported {
			fmt.Fprintf(w, "kbbench: %s\n", ue.msg)
		}
		fmt.Fprintln(w, "Run 'kbbench --help' for usage.")
		return 2
	}
	fmt.Fprintf(w, "kbbench: %v\n", err)
	return 1
}

const about = `kbbench drives a running kbserver with concurrent clients through a mix of
operations and prints, per operation, the requests, errors (non-2xx answers
and transport errors, also counted per status), throughput and p50/p95/p99
latency. Requests that start during --warmup are not counted.

At start-up it discovers the customer's vendors, packages (selected ones
first), titles with their ids, words, subjects and ISSNs/ISBNs, from which
every request is built (deterministically for a --seed). Each client is a
goroutine with its own keep-alive HTTP client that takes the operations of
the mix in round-robin order, each client starting at a different place in
it, so every operation gets about the same number of requests.

Operations (--mix takes comma-separated names; a name also selects every
operation it is a "/"-prefix of, e.g. "titles" or "titles/contains"):
%s
Groups: all (every operation), read (all but resource/put).

resource/put selects and deselects titles in turn and puts each back to its
discovered state at the end: titles of managed packages that are not
Complete, in which the customer has no customisation of the title (not
hidden, no custom coverage, embargo, coverage statement, user-defined
field or proxy), since a PUT with isSelected alone would clear it. Only titles
not selected are toggled when discovery finds any: selected and deselected
again, they leave no trace (a title selected through its package keeps,
once put back, a title-level row that says "as the package": the same
state). erm/contacts/list
creates three contacts when the customer has none and deletes them at the
end. pf/publications needs --profile and is skipped without it. Note that
each resource/put changes the customer's holdings, so the next publication
search waits for the collection's rebuild (unless kbserver runs --pf-stale).

With --store-db the same title-search queries also run straight on the
store (the server's --db: a SQLite file or a postgres:// URL) with the same
clients and duration, and a third table gives the ratios HTTP p50 / store
p50 and HTTP throughput / store throughput: the cost of the HTTP layer.
The store answers title searches from an in-memory title index, as in
the server: before the timed run kbbench reads it from FILE.search-index,
the file the server keeps beside a SQLite FILE, when that file is there
and holds the store's data, and builds it from the store otherwise (and
then writes that file again, as the server does). As operations take
turns, each gets the same share of a client's time: compare the
throughput of the totals, with --mix titles so that both runs have the
same mix.

Examples:
  kbserver serve --demo --db demo.db          # prints the API key
  kbbench --key kb_… --profile demo.main.az
  kbbench --key kb_… --mix titles --clients 2 --duration 10s --store-db demo.db
  kbbench --key kb_… --mix titles --store-db demo.db --json run1.json
  KBBENCH_KEY=kb_… kbbench --mix titles/contains,vendors/list --json out.json

Flags:
`

// run runs kbbench with the command-line arguments args (without the
// program name). It returns nil on success, including when help was asked
// for.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if ok, err := runTool(ctx, args[0], args[1:], stdout, stderr); ok {
			return err
		}
	}
	o := options{}
	fs := flag.NewFlagSet("kbbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "base `URL` of the running kbserver")
	fs.StringVar(&o.custID, "custid", "demo", "customer `id` of the holdings and resource management requests")
	fs.StringVar(&o.key, "key", "", "API `key` of the customer (default: env KBBENCH_KEY)")
	fs.StringVar(&o.profile, "profile", "", "publication search `profile` (CUSTID.GROUPID.PROFILEID, e.g. demo.main.az); without it pf/publications is skipped")
	fs.StringVar(&o.password, "pf-password", "", "`password` of the publication search profile (none: a guest profile)")
	fs.IntVar(&o.clients, "clients", 4, "`number` of concurrent clients")
	fs.DurationVar(&o.duration, "duration", 30*time.Second, "measured `duration` of the load")
	fs.DurationVar(&o.warmup, "warmup", 3*time.Second, "`duration` of load before the measurement, not counted")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "`timeout` of one request")
	fs.StringVar(&o.mix, "mix", "all", "comma-separated operation `names` or groups (see above)")
	fs.Int64Var(&o.seed, "seed", 1, "`seed` of the search terms and ids picked")
	fs.IntVar(&o.count, "count", 25, "page size (`count` parameter) of list and search requests")
	fs.StringVar(&o.jsonFile, "json", "", "also write the results as JSON to `file`")
	fs.StringVar(&o.storeDB, "store-db", "", "also run the title searches straight on this store (the server's --db: a SQLite `file` or a postgres:// URL) and compare")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stdout, "usage: kbbench [flags]\n       kbbench startup|kbinfo|snapshot|summary [flags]\n\n"+about, operationHelp())
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			fmt.Fprint(stdout, "\n"+toolsHelp)
			return nil
		}
		return &usageError{msg: err.Error(), reported: true}
	}
	if o.key == "" {
		o.key = getenv("KBBENCH_KEY")
	}
	if fs.NArg() > 0 {
		return usageErrorf("unexpected argument %q: kbbench takes flags only", fs.Arg(0))
	}
	if err := o.check(); err != nil {
		return err
	}
	flags := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value.String()
		if (f.Name == "key" || f.Name == "pf-password") && v != "" {
			v = "(set)"
		}
		flags[f.Name] = v
	})
	return bench(ctx, o, flags, stdout, stderr)
}

// check validates the flags.
func (o *options) check() error {
	u, err := url.Parse(o.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageErrorf("--url must be an http or https URL (got %q)", o.url)
	}
	o.url = strings.TrimRight(o.url, "/")
	switch {
	case o.custID == "":
		return usageErrorf("--custid is empty")
	case o.key == "":
		return usageErrorf("no API key: give --key or set KBBENCH_KEY")
	case o.clients < 1 || o.clients > 10000:
		return usageErrorf("--clients must be between 1 and 10000 (got %d)", o.clients)
	case o.duration <= 0:
		return usageErrorf("--duration must be positive (got %s)", o.duration)
	case o.warmup < 0:
		return usageErrorf("--warmup must not be negative (got %s)", o.warmup)
	case o.timeout <= 0:
		return usageErrorf("--timeout must be positive (got %s)", o.timeout)
	case o.count < 1 || o.count > 100:
		return usageErrorf("--count must be between 1 and 100 (got %d)", o.count)
	}
	if _, err := selectOperations(o.mix); err != nil {
		return err
	}
	return nil
}

// bench discovers the knowledge base, runs the load and reports it;
// flags are the flag values for the report.
func bench(ctx context.Context, o options, flags map[string]string, stdout, stderr io.Writer) error {
	start := time.Now()
	names, err := selectOperations(o.mix)
	if err != nil {
		return err
	}
	var notes []string
	if o.profile == "" && slices.Contains(names, opPublications) {
		names = slices.DeleteFunc(names, func(n string) bool { return n == opPublications })
		notes = append(notes, opPublications+" skipped: no --profile given")
	}
	if len(names) == 0 {
		return errors.New("nothing to run: " + strings.Join(notes, "; "))
	}
	api := newAPIClient(o)
	d, err := discover(ctx, api, o, names)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "kbbench: discovered %d vendors, %d packages, %d titles, %d resources to toggle, %d ISSN/ISBNs at %s\n",
		len(d.vendors), len(d.packages), len(d.titles), len(d.resources), len(d.isxns), o.url)
	ops, skipped := buildOperations(names, d, o)
	notes = append(notes, skipped...)
	for _, n := range notes {
		fmt.Fprintf(stderr, "kbbench: %s\n", n)
	}
	if len(ops) == 0 {
		return errors.New("nothing to run: " + strings.Join(notes, "; "))
	}
	names = make([]string, len(ops))
	for i, op := range ops {
		names[i] = op.name
	}

	fmt.Fprintf(stderr, "kbbench: %d operations, %d clients, %s warm-up, %s measured\n", len(ops), o.clients, o.warmup, o.duration)
	res, measured := runLoad(ctx, o, names, func(int) executor { return newHTTPExecutor(o, ops) })
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	err = d.cleanup(cctx, api)
	cancel()
	if err != nil {
		fmt.Fprintf(stderr, "kbbench: clean-up: %v\n", err)
	}

	r := report{
		Start:     start.UTC().Format(time.RFC3339),
		GoVersion: runtime.Version(),
		Flags:     flags,
		Measured:  measured.Seconds(),
		Notes:     notes,
	}
	r.Operations, r.Totals = summarize(names, res, measured)
	if o.storeDB != "" && ctx.Err() == nil {
		st, tot, err := runStore(ctx, o, ops, stderr)
		if err != nil {
			return err
		}
		if st != nil {
			r.Store = &storeReport{Operations: st, Totals: tot, Ratios: ratios(slices.Concat(r.Operations, []opStats{r.Totals}), slices.Concat(st, []opStats{tot}))}
		}
	}
	writeTables(stdout, r)
	if o.jsonFile != "" {
		if err := writeJSON(o.jsonFile, r); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errors.New("interrupted: the results cover part of the run")
	}
	return nil
}

// writeJSON writes r to file, replacing it only once complete.
func writeJSON(file string, r report) error {
	b, err := marshalReport(r)
	if err != nil {
		return fmt.Errorf("encode JSON results: %w", err)
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("write JSON results: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return fmt.Errorf("write JSON results: %w", err)
	}
	return nil
}
