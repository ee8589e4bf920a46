package main

import (
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/kbserver/kbserver/internal/kb"
)

// The list commands: what a knowledge base holds, for a newcomer finding
// their way and for scripts (tab-aligned columns, a header line).

func customerListCommand() *command {
	return &command{
		name:    "customer list",
		summary: "list the customers",
		usesDB:  true,
		about: `Customer list prints every customer: its id (the CUSTID of the API paths),
its name and the id of its own vendor (which holds its custom packages).`,
		example: "kbserver customer list",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("customer list", "unexpected argument %q: customer list takes none", args[0])
				}
				st, err := c.openStore()
				if err != nil {
					return err
				}
				defer st.Close()
				cs, err := st.Customers(c.ctx)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "CUSTID\tNAME\tVENDOR")
				for _, cu := range cs {
					fmt.Fprintf(tw, "%s\t%s\t%d\n", cu.ID, cu.Name, cu.VendorID)
				}
				return tw.Flush()
			}
		},
	}
}

func apikeyListCommand() *command {
	return &command{
		name:    "apikey list",
		args:    "CUSTID",
		summary: "list a customer's API keys",
		usesDB:  true,
		about: `Apikey list prints a customer's API keys, oldest first: the id the change
history names a key by, its environment and when it was made. The keys
themselves are not stored (only their hashes), so they cannot be shown;
revoke one with 'kbserver apikey revoke' and its key.`,
		example: "kbserver apikey list mylib",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("apikey list", "CUSTID is missing: name the customer")
				case len(args) > 1:
					return usageErrorf("apikey list", "unexpected argument %q: give one CUSTID", args[1])
				}
				st, err := c.openCustomerStore(args[0])
				if err != nil {
					return err
				}
				defer st.Close()
				keys, err := st.APIKeys(c.ctx, args[0])
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tENVIRONMENT\tCREATED (UTC)")
				for _, k := range keys {
					fmt.Fprintf(tw, "%d\t%s\t%s\n", k.ID, k.Environment, k.Created.Format("2006-01-02 15:04:05"))
				}
				return tw.Flush()
			}
		},
	}
}

func profileListCommand() *command {
	return &command{
		name:    "profile list",
		args:    "[CUSTID]",
		summary: "list publication search profiles",
		usesDB:  true,
		about: `Profile list prints the publication search profiles of a customer, or of
every customer: the profile, whether it has a password and guest access,
and the path of its A–Z page.`,
		example: "kbserver profile list\nkbserver profile list mylib",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				if len(args) > 1 {
					return usageErrorf("profile list", "unexpected argument %q: give at most one CUSTID", args[1])
				}
				custID := ""
				if len(args) == 1 {
					custID = args[0]
				}
				var st kb.Store
				var err error
				if custID != "" {
					st, err = c.openCustomerStore(custID)
				} else {
					st, err = c.openStore()
				}
				if err != nil {
					return err
				}
				defer st.Close()
				ps, err := st.Profiles(c.ctx, custID)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "PROFILE\tPASSWORD\tGUEST\tA–Z PAGE")
				for _, p := range ps {
					fmt.Fprintf(tw, "%s\t%s\t%s\t/az/%s/\n", p.ID, yesNo(p.PasswordHash != ""), yesNo(p.Guest), p.ID)
				}
				return tw.Flush()
			}
		},
	}
}

func packageListCommand() *command {
	return &command{
		name:    "package list",
		args:    "CUSTID",
		summary: "list or search packages in a customer's view",
		usesDB:  true,
		about: `Package list prints packages as the customer sees them (the knowledge base's
and its own custom packages), by name, or by relevance with --search, whose
words are word prefixes as in the holdings service's package search: id,
vendor, name, titles, and how many of them the customer selected.`,
		example: "kbserver package list mylib --search nursing\nkbserver package list mylib --vendor 5 --count 20",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var search string
			var vendor int64
			var count int
			fs.StringVar(&search, "search", "", "only packages whose names hold these `words`")
			fs.Int64Var(&vendor, "vendor", 0, "only this vendor's packages (its `id`)")
			fs.IntVar(&count, "count", 100, "at most this `number` of packages (1-"+fmt.Sprint(kb.MaxCount)+")")
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("package list", "CUSTID is missing: name the customer whose view to list")
				case len(args) > 1:
					return usageErrorf("package list", "unexpected argument %q: give one CUSTID (quote --search words)", args[1])
				case count < 1 || count > kb.MaxCount:
					return usageErrorf("package list", "--count %d is outside 1-%d", count, kb.MaxCount)
				case vendor < 0:
					return usageErrorf("package list", "--vendor %d is not a vendor id", vendor)
				}
				st, err := c.openCustomerStore(args[0])
				if err != nil {
					return err
				}
				defer st.Close()
				q := kb.PackageQuery{VendorID: vendor, Search: search, OrderBy: kb.OrderName, Page: kb.Page{Count: count, Number: 1}}
				if search != "" {
					q.OrderBy = kb.OrderRelevance
				}
				l, err := st.Packages(c.ctx, args[0], q)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tVENDOR\tNAME\tTITLES\tSELECTED")
				for _, p := range l.Packages {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\n", p.ID, p.VendorName, p.Name, p.TitleCount, p.SelectedCount)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				if l.Total > len(l.Packages) {
					fmt.Fprintf(c.stdout, "(%d of %d packages; --count shows more)\n", len(l.Packages), l.Total)
				}
				return nil
			}
		},
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
