package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/kb"
)

// The feed commands keep packages current from their publishers'
// addresses (issue 37): add, list, show, run now, approve a held file,
// remove. serve runs the due ones (--feeds-every).

// headerFlags collects repeated --header values.
type headerFlags []string

func (h *headerFlags) String() string { return strings.Join(*h, ", ") }

func (h *headerFlags) Set(s string) error {
	*h = append(*h, s)
	return nil
}

func feedAddCommand() *command {
	return &command{
		name:    "feed add",
		summary: "add package feeds (a package kept current from its publisher's address) or a customer's holdings feed",
		usesDB:  true,
		about: `Feed add names a package of the knowledge base (--vendor, --package: created
by its first run when new) and the address of its KBART file (--url: http,
https or file://), how often it runs (--every: a Go duration such as 24h or
168h, or daily, weekly; default 24h), request headers it sends (--header
'Name: value', repeatable, for a publisher's token; the value is never
printed) and the share of the package's titles a run may remove without
review (--max-removal, default 20%). It prints the feed with its id.

A run (kbserver feed run ID) fetches the file with a conditional GET (an
unchanged file writes nothing), checks it (a KBART header, at most 10% of
rows refused, removals within --max-removal, not empty) and imports it
as 'import kbart' does, or holds it for review (kbserver feed approve ID);
a failed fetch changes nothing. Every run is kept in the feed's history
(kbserver feed show ID). serve runs each feed when it is due (see
serve's --feeds-every); a new feed is due at once.

--from LIST reads feeds from a tab-separated file, one a line: vendor,
package, address, and optionally the schedule and the removal share ('#'
starts a comment line). Every line is checked before any feed is added.
--run then runs each new feed at once, one after the other, and prints
each run's outcome, so that one command sets up and loads a knowledge base
of many packages (without it, serve runs them within --feeds-every).

--holdings --customer C adds a customer's holdings feed instead (NISO
RP-26): the address serves the institution's own KBART file of a package
that is in the knowledge base, and each run makes customer C's selection
of that package exactly the file's titles (matched by title_id, then a
valid ISSN or ISBN, then, for a row without one, a name one title of the
package has): it selects those not selected and deselects the others,
leaving the titles that stay selected with the customer's customisation.
A run that would deselect more than --max-removal of the titles C selects
in the package is held. One holdings feed a customer and package.`,
		example: "kbserver feed add --vendor Wiley --package 'Wiley Online Library' --url https://example.com/wiley.txt --every weekly\n" +
			"kbserver feed add --vendor Local --package Theses --url file:///srv/kbart/theses.txt --json\n" +
			"kbserver feed add --from feeds.tsv --run\n" +
			"kbserver feed add --holdings --customer lib --vendor Wiley --package 'Wiley Online Library' --url 'https://example.com/inst/lib.txt?token=…'",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var vendor, pkg, url, every, maxRemoval, from, customer string
			var headers headerFlags
			var asJSON, holdings, runNow bool
			fs.StringVar(&vendor, "vendor", "", "the package's `vendor`")
			fs.StringVar(&pkg, "package", "", "the `package`'s name")
			fs.StringVar(&url, "url", "", "the `address` of its KBART file (http, https, file)")
			fs.StringVar(&every, "every", "", "how often it runs (`duration`, daily or weekly; default 24h)")
			fs.Var(&headers, "header", "a request `header` 'Name: value' (repeatable)")
			fs.StringVar(&maxRemoval, "max-removal", "", "the `share` of the package's titles a run may remove without review (default 20%)")
			fs.StringVar(&from, "from", "", "add the feeds of a tab-separated `file`")
			fs.BoolVar(&runNow, "run", false, "run each new feed now, and print its outcome")
			fs.BoolVar(&holdings, "holdings", false, "add a customer's holdings feed (with --customer): the file selects the package's titles for the customer")
			fs.StringVar(&customer, "customer", "", "the `customer` of a holdings feed (with --holdings)")
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("feed add", "unexpected argument %q: the feed is given by flags", args[0])
				}
				var list []kb.Feed
				switch {
				case holdings && strings.TrimSpace(customer) == "":
					return usageErrorf("feed add", "--holdings needs --customer: name the customer whose selection the file sets")
				case !holdings && customer != "":
					return usageErrorf("feed add", "--customer names the customer of a holdings feed: add --holdings")
				case holdings && from != "":
					return usageErrorf("feed add", "--from adds package feeds: add a holdings feed with --vendor, --package and --url")
				}
				if from != "" {
					if vendor != "" || pkg != "" || url != "" {
						return usageErrorf("feed add", "give --from or --vendor, --package and --url, not both")
					}
					var err error
					if list, err = readFeedList(from); err != nil {
						return err
					}
				} else {
					f, err := feedOf(vendor, pkg, url, every, maxRemoval, headers)
					if err != nil {
						return usageErrorf("feed add", "%s", kb.ErrorMessage(err))
					}
					f.CustomerID, f.Holdings = strings.TrimSpace(customer), holdings
					list = []kb.Feed{f}
				}
				st, err := c.createStore() // a knowledge base may begin with its feeds
				if err != nil {
					return err
				}
				defer st.Close()
				var added []kb.Feed
				for _, f := range list {
					f, err := st.AddFeed(c.ctx, f)
					if err != nil {
						return fmt.Errorf("feed add: %s: %w", f, err)
					}
					added = append(added, f)
				}
				runs := make([]*kb.FeedRun, len(added))
				if runNow {
					for i, f := range added {
						r, err := runFeedNow(c, st, f.ID)
						if err != nil {
							return fmt.Errorf("feed add --run: %s: %w", f, err)
						}
						runs[i] = &r
						if !asJSON {
							fmt.Fprintf(c.stdout, "Feed %d added (%s / %s): %s. %s\n", f.ID, f.Vendor, f.Package, r.Outcome, r.Message)
						}
					}
				}
				if asJSON {
					out := make([]feedJSON, len(added))
					for i, f := range added {
						out[i] = feedJSONOf(f)
						if runs[i] != nil {
							j := feedRunJSONOf(*runs[i])
							out[i].Run = &j
						}
					}
					if from == "" {
						return writeJSON(c.stdout, out[0])
					}
					return writeJSON(c.stdout, out)
				}
				if runNow {
					return nil
				}
				for _, f := range added {
					fmt.Fprintf(c.stdout, "Feed %d added: %s / %s from %s, every %s, holds %s.\n",
						f.ID, f.Vendor, f.Package, kb.RedactURL(f.URL), f.Every, heldWords(f))
				}
				return nil
			}
		},
	}
}

// heldWords says which runs of f are held for review.
func heldWords(f kb.Feed) string {
	share := strconv.FormatFloat(f.MaxRemoval, 'f', -1, 64) + "%"
	if f.Holdings {
		return "runs deselecting more than " + share + " of the titles customer " + f.CustomerID + " selects in the package"
	}
	return "runs removing more than " + share + " of the titles"
}

// feedOf checks a feed's options.
func feedOf(vendor, pkg, url, every, maxRemoval string, headers []string) (kb.Feed, error) {
	f := kb.Feed{Vendor: strings.TrimSpace(vendor), Package: strings.TrimSpace(pkg), URL: strings.TrimSpace(url)}
	switch {
	case f.Vendor == "":
		return f, kb.Errorf(kb.CodeMissing, "--vendor is missing: name the package's vendor")
	case f.Package == "":
		return f, kb.Errorf(kb.CodeMissing, "--package is missing: name the package")
	case f.URL == "":
		return f, kb.Errorf(kb.CodeMissing, "--url is missing: give the address of the package's KBART file")
	}
	var err error
	if f.Every, err = kb.ParseFeedEvery(every); err != nil {
		return f, err
	}
	if f.MaxRemoval, err = kb.ParseFeedMaxRemoval(maxRemoval); err != nil {
		return f, err
	}
	for _, h := range headers {
		fh, err := kb.ParseFeedHeader(h)
		if err != nil {
			return f, err
		}
		f.Headers = append(f.Headers, fh)
	}
	return f, nil
}

// readFeedList reads a tab-separated list of feeds, checking every line
// before any is added.
func readFeedList(path string) ([]kb.Feed, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("feed add --from: %w", err)
	}
	defer file.Close()
	var out []kb.Feed
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 3 || len(fields) > 5 {
			return nil, fmt.Errorf("feed add --from %s: line %d has %d fields: want vendor, package, address, and optionally the schedule and the removal share, separated by tabs", path, n, len(fields))
		}
		for len(fields) < 5 {
			fields = append(fields, "")
		}
		f, err := feedOf(fields[0], fields[1], fields[2], fields[3], fields[4], nil)
		if err != nil {
			return nil, fmt.Errorf("feed add --from %s: line %d: %s", path, n, kb.ErrorMessage(err))
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("feed add --from %s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("feed add --from %s: no feed in the file", path)
	}
	return out, nil
}

func feedListCommand() *command {
	return &command{
		name:    "feed list",
		summary: "list the package feeds",
		usesDB:  true,
		about:   "Feed list prints every feed: its id, package, address (tokens hidden), schedule and when it is next due.",
		example: "kbserver feed list\nkbserver feed list --json",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var asJSON bool
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("feed list", "unexpected argument %q", args[0])
				}
				st, err := c.openStore()
				if err != nil {
					return err
				}
				defer st.Close()
				list, err := st.Feeds(c.ctx)
				if err != nil {
					return err
				}
				if asJSON {
					out := make([]feedJSON, len(list))
					for i, f := range list {
						out[i] = feedJSONOf(f)
					}
					return writeJSON(c.stdout, out)
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tVENDOR\tPACKAGE\tHOLDINGS OF\tADDRESS\tEVERY\tNEXT RUN")
				for _, f := range list {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", f.ID, f.Vendor, f.Package, cmp.Or(f.CustomerID, "-"), kb.RedactURL(f.URL), f.Every,
						f.NextRun.UTC().Format(time.RFC3339))
				}
				return tw.Flush()
			}
		},
	}
}

func feedShowCommand() *command {
	return &command{
		name:    "feed show",
		args:    "ID",
		summary: "show a package feed and its runs, newest first",
		usesDB:  true,
		about:   "Feed show prints a feed and the history of its runs, newest first: when, the outcome (applied, unchanged, held, failed), the message, the HTTP status, the bytes read and the titles added, removed and changed.",
		example: "kbserver feed show 3\nkbserver feed show 3 --json",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var asJSON bool
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			return func(args []string) error {
				id, st, err := c.openFeed("feed show", args)
				if err != nil {
					return err
				}
				defer st.Close()
				f, runs, err := st.FeedHistory(c.ctx, id)
				if err != nil {
					return err
				}
				if asJSON {
					out := struct {
						feedJSON
						Runs []feedRunJSON `json:"runs"`
					}{feedJSONOf(f), make([]feedRunJSON, len(runs))}
					for i, r := range runs {
						out.Runs[i] = feedRunJSONOf(r)
					}
					return writeJSON(c.stdout, out)
				}
				kind := ""
				if f.Holdings {
					kind = " (holdings of customer " + f.CustomerID + ")"
				}
				fmt.Fprintf(c.stdout, "Feed %d: %s / %s%s\nAddress: %s\nEvery %s; next run %s; it holds %s.\n\n",
					f.ID, f.Vendor, f.Package, kind, kb.RedactURL(f.URL), f.Every, f.NextRun.UTC().Format(time.RFC3339), heldWords(f))
				if len(runs) == 0 {
					fmt.Fprintln(c.stdout, "No run yet: kbserver feed run", f.ID)
					return nil
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "RUN\tSTARTED\tOUTCOME\tSTATUS\tBYTES\tADDED\tREMOVED\tCHANGED\tMESSAGE")
				for _, r := range runs {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", r.ID, r.Started.UTC().Format(time.RFC3339), r.Outcome, r.Status, r.Bytes, r.Added, r.Removed, r.Changed, r.Message)
				}
				return tw.Flush()
			}
		},
	}
}

func feedRunCommand() *command {
	return feedActCommand("feed run", "run a package feed now",
		`Feed run runs a feed now, whether it is due or not: it fetches the file,
checks it and applies it, or holds it for review, or records the failure;
it prints the outcome. A feed another server is running is refused: run
it again when that run is done.`,
		func(c *cli, st feeds.Store, f kb.Feed, holder string) (kb.FeedRun, error) {
			return feeds.Run(c.ctx, feeds.Deps{Store: st, Lease: feedLease}, f, holder)
		})
}

func feedApproveCommand() *command {
	return feedActCommand("feed approve", "apply the file a feed's newest run held",
		`Feed approve applies exactly the file the feed's newest held run kept (not
a new fetch), as 'import kbart' would, and prints the outcome. A feed
whose newest run was not held has nothing to approve.`,
		func(c *cli, st feeds.Store, f kb.Feed, holder string) (kb.FeedRun, error) {
			_, runs, err := st.FeedHistory(c.ctx, f.ID)
			if err != nil {
				return kb.FeedRun{}, err
			}
			if len(runs) == 0 || runs[0].Outcome != kb.FeedHeld {
				return kb.FeedRun{}, kb.Errorf(kb.CodeNotAllowed, "Feed %d has no held run to approve: its newest run was not held.", f.ID)
			}
			return feeds.Approve(c.ctx, feeds.Deps{Store: st, Lease: feedLease}, f, runs[0].ID, holder)
		})
}

// runFeedNow claims feed id and runs it, as feed run does.
func runFeedNow(c *cli, st feeds.Store, id int64) (kb.FeedRun, error) {
	holder := fmt.Sprintf("cli-%d-%d", os.Getpid(), time.Now().UnixNano())
	f, ok, err := st.ClaimFeed(c.ctx, id, time.Now(), holder, feedLease)
	if err != nil {
		return kb.FeedRun{}, err
	}
	if !ok {
		return kb.FeedRun{}, fmt.Errorf("feed %d is being run by another server; try again when it is done", id)
	}
	return feeds.Run(c.ctx, feeds.Deps{Store: st, Lease: feedLease}, f, holder)
}

// feedLease is how long the command line holds a feed it runs; the run
// renews it while it works.
const feedLease = 10 * time.Minute

// feedActCommand is feed run and feed approve: claim the feed, act,
// print the run.
func feedActCommand(name, summary, about string, act func(c *cli, st feeds.Store, f kb.Feed, holder string) (kb.FeedRun, error)) *command {
	return &command{
		name:    name,
		args:    "ID",
		summary: summary,
		usesDB:  true,
		about:   about + "\n\n--json prints {\"outcome\", \"message\", \"added\", \"removed\", \"changed\"}.",
		example: "kbserver " + name + " 3\nkbserver " + name + " 3 --json",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var asJSON bool
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			return func(args []string) error {
				id, st, err := c.openFeed(name, args)
				if err != nil {
					return err
				}
				defer st.Close()
				holder := fmt.Sprintf("cli-%d-%d", os.Getpid(), time.Now().UnixNano())
				f, ok, err := st.ClaimFeed(c.ctx, id, time.Now(), holder, feedLease)
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("%s: feed %d is being run by another server; try again when it is done", name, id)
				}
				run, err := act(c, st, f, holder)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(c.stdout, struct {
						Outcome kb.FeedOutcome `json:"outcome"`
						Message string         `json:"message"`
						Added   int            `json:"added"`
						Removed int            `json:"removed"`
						Changed int            `json:"changed"`
					}{run.Outcome, run.Message, run.Added, run.Removed, run.Changed})
				}
				fmt.Fprintf(c.stdout, "Feed %d: %s. %s\n", f.ID, run.Outcome, run.Message)
				return nil
			}
		},
	}
}

func feedRemoveCommand() *command {
	return &command{
		name:    "feed remove",
		args:    "ID",
		summary: "remove a package feed and its history",
		usesDB:  true,
		about:   "Feed remove removes a feed and the history of its runs. The package and its titles stay.",
		example: "kbserver feed remove 3",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				id, st, err := c.openFeed("feed remove", args)
				if err != nil {
					return err
				}
				defer st.Close()
				if err := st.RemoveFeed(c.ctx, id); err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "Feed %d removed.\n", id)
				return nil
			}
		},
	}
}

// openFeed reads the command's one argument, a feed's id, and opens the
// store.
func (c *cli) openFeed(name string, args []string) (int64, kb.Store, error) {
	if len(args) != 1 {
		return 0, nil, usageErrorf(name, "give one feed ID (kbserver feed list shows them)")
	}
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || id <= 0 {
		return 0, nil, usageErrorf(name, "%q is not a feed ID: a positive whole number (kbserver feed list shows them)", args[0])
	}
	st, err := c.openStore()
	return id, st, err
}

// feedJSON is a feed as --json prints it: the address with its tokens
// hidden, the headers' names only.
type feedJSON struct {
	ID         int64    `json:"id"`
	Vendor     string   `json:"vendor"`
	Package    string   `json:"package"`
	URL        string   `json:"url"`
	Every      string   `json:"every"`
	Headers    []string `json:"headers"`
	MaxRemoval float64  `json:"maxRemoval"`
	NextRun    string   `json:"nextRun"`
	// Customer is the customer of a holdings feed ("" for a package
	// feed), AddedBy "customer" for one the library added itself.
	Holdings bool   `json:"holdings"`
	Customer string `json:"customer,omitempty"`
	AddedBy  string `json:"addedBy"`
	// Run is the run of feed add --run.
	Run *feedRunJSON `json:"run,omitempty"`
}

func feedJSONOf(f kb.Feed) feedJSON {
	out := feedJSON{ID: f.ID, Vendor: f.Vendor, Package: f.Package, URL: kb.RedactURL(f.URL), Every: f.Every.String(),
		Headers: []string{}, MaxRemoval: f.MaxRemoval, NextRun: f.NextRun.UTC().Format(time.RFC3339),
		Holdings: f.Holdings, Customer: f.CustomerID, AddedBy: "operator"}
	if f.ByCustomer {
		out.AddedBy = "customer"
	}
	for _, h := range f.Headers {
		out.Headers = append(out.Headers, h.Name)
	}
	return out
}

// feedRunJSON is a run as feed show --json prints it.
type feedRunJSON struct {
	ID       int64          `json:"id"`
	Started  string         `json:"started"`
	Finished string         `json:"finished"`
	Outcome  kb.FeedOutcome `json:"outcome"`
	Message  string         `json:"message"`
	Status   int            `json:"status"`
	Bytes    int64          `json:"bytes"`
	Added    int            `json:"added"`
	Removed  int            `json:"removed"`
	Changed  int            `json:"changed"`
	Held     bool           `json:"held"`
}

func feedRunJSONOf(r kb.FeedRun) feedRunJSON {
	return feedRunJSON{ID: r.ID, Started: r.Started.UTC().Format(time.RFC3339), Finished: r.Finished.UTC().Format(time.RFC3339),
		Outcome: r.Outcome, Message: r.Message, Status: r.Status, Bytes: r.Bytes, Added: r.Added, Removed: r.Removed, Changed: r.Changed, Held: r.Held}
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
