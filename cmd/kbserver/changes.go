package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

type changesOptions struct {
	customer  string
	kb        bool
	packageID int64
	importID  int64
	limit     int
	json      bool
}

func changesCommand() *command {
	return &command{
		name:    "changes",
		summary: "list recorded changes: a customer's, or the knowledge base's imports'",
		usesDB:  true,
		about: `Changes prints recorded changes, newest first, one a line: when, who made
it (a customer with the API key's id, or "kb" with the import's id), the
object, the action, and the state before and after as JSON. A customer's
changes (made through the API or the command line) and the knowledge base's
(made by imports: kb.add, kb.remove, kb.update, kb.rename, kb.reidentify,
kb.restore, and kb.import for a package's first import) read alike.

Choose what to list with --customer (that customer's changes), --kb (the
imports' changes), --package (the changes of one package: with neither
--customer nor --kb, the imports' and every customer's) and --import (one
import's, whose id import kbart prints).`,
		example: `kbserver changes --package 169
kbserver changes --customer mylib --limit 20
kbserver changes --kb --import 4044359410770256759 --json`,
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var o changesOptions
			fs.StringVar(&o.customer, "customer", "", "the changes of customer `ID`")
			fs.BoolVar(&o.kb, "kb", false, "the knowledge base's changes (imports')")
			fs.Int64Var(&o.packageID, "package", 0, "only the changes of package `ID`")
			fs.Int64Var(&o.importID, "import", 0, "only the changes of import `ID`")
			fs.IntVar(&o.limit, "limit", 50, "print at most `N` changes; 0 prints all")
			fs.BoolVar(&o.json, "json", false, "print each change as a JSON object")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("changes", "unexpected argument %q: choose the changes with --customer, --kb, --package or --import", args[0])
				}
				return c.changes(o)
			}
		},
	}
}

func (c *cli) changes(o changesOptions) error {
	const cmd = "changes"
	switch {
	case o.limit < 0:
		return usageErrorf(cmd, "--limit %d: give 0 (all) or more", o.limit)
	case o.packageID < 0 || o.importID < 0:
		return usageErrorf(cmd, "--package and --import take ids of 1 or more")
	case o.customer == "" && !o.kb && o.packageID == 0 && o.importID == 0:
		return usageErrorf(cmd, "choose the changes: --customer ID, --kb, --package ID or --import ID")
	}
	q := kb.ChangeQuery{CustomerID: o.customer, KB: o.kb, PackageID: o.packageID, ImportID: o.importID, Limit: o.limit}
	if o.limit == 0 {
		q.Limit = -1
	}
	if o.customer == "" && !o.kb {
		// --package alone: the package's whole history; --import alone:
		// that import's changes.
		q.KB, q.Everyone = true, o.packageID != 0
	}
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	cs, err := st.Changes(c.ctx, q)
	if err != nil {
		return err
	}
	for _, ch := range cs {
		if o.json {
			b, err := json.Marshal(changeJSON(ch))
			if err != nil {
				return err
			}
			fmt.Fprintln(c.stdout, string(b))
			continue
		}
		fmt.Fprintf(c.stdout, "%s\t%s\t%s\t%s\t%s\t%s\n", ch.At, who(ch), ch.Object, ch.Action, orDash(ch.Before), orDash(ch.After))
	}
	if len(cs) == 0 {
		fmt.Fprintln(c.stderr, "No changes recorded.")
	}
	return nil
}

// who names the maker of a change.
func who(ch kb.Change) string {
	feed := ""
	if ch.FeedID != 0 {
		feed = "feed " + strconv.FormatInt(ch.FeedID, 10)
	}
	switch {
	case ch.CustomerID == "" && feed != "":
		return "kb (" + feed + ", import " + strconv.FormatInt(ch.ImportID, 10) + ")"
	case ch.CustomerID == "":
		return "kb (import " + strconv.FormatInt(ch.ImportID, 10) + ")"
	case feed != "":
		return ch.CustomerID + " (" + feed + ")"
	case ch.KeyID == 0:
		return ch.CustomerID + " (command line)"
	}
	return ch.CustomerID + " (key " + strconv.FormatInt(ch.KeyID, 10) + ")"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// changeJSON is a change as --json prints it.
func changeJSON(ch kb.Change) map[string]any {
	m := map[string]any{"id": ch.ID, "at": ch.At, "object": ch.Object, "action": ch.Action,
		"before": rawOrNull(ch.Before), "after": rawOrNull(ch.After)}
	if ch.CustomerID == "" {
		m["importId"] = ch.ImportID
	} else {
		m["customerId"], m["keyId"] = ch.CustomerID, ch.KeyID
	}
	if ch.PackageID != 0 {
		m["packageId"] = ch.PackageID
	}
	if ch.FeedID != 0 {
		m["feedId"] = ch.FeedID
	}
	return m
}

func rawOrNull(s string) json.RawMessage {
	if strings.TrimSpace(s) == "" || !json.Valid([]byte(s)) {
		return json.RawMessage("null")
	}
	return json.RawMessage(s)
}

func retiredPurgeCommand() *command {
	return &command{
		name:    "retired purge",
		summary: "forget customers' state kept for titles that left their packages",
		usesDB:  true,
		about: `Retired purge forgets the customers' selections and customisations that
imports kept aside for titles that left their packages, when they left
before --older-than ago. Each import forgets what is older than 400 days by
itself; this command forgets sooner.`,
		example: "kbserver retired purge --older-than 90d",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			older := fs.String("older-than", "400d", "forget what was kept aside longer ago than `DURATION` (such as 90d, 12h)")
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("retired purge", "unexpected argument %q", args[0])
				}
				d, err := parseAge(*older)
				if err != nil {
					return usageErrorf("retired purge", "--older-than %q: %v", *older, err)
				}
				st, err := c.openStore()
				if err != nil {
					return err
				}
				defer st.Close()
				n, err := st.PurgeRetired(c.ctx, time.Now().Add(-d))
				if err != nil {
					return err
				}
				fmt.Fprintf(c.stdout, "Forgot the kept state of %d titles that left their packages more than %s ago.\n", n, *older)
				return nil
			}
		},
	}
}

// parseAge reads a duration that may also be given in days ("90d").
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("give a whole number of days, such as 90d, or a duration such as 12h")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("give a duration such as 90d or 12h")
	}
	return d, nil
}
