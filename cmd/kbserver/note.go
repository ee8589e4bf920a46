package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kbserver/kbserver/internal/kb"
)

func noteAddCommand() *command {
	return &command{
		name:    "note add",
		args:    "CUSTID PACKAGEID TITLEID",
		summary: "add a customer's note on a resource (a title in a package)",
		usesDB:  true,
		about: `Note add attaches a note of a customer to a resource, a title in a package
the customer can see, and prints the new note's id. Publication search
shows a resource's notes (PfNote) in --rank order, then in the order they
were added. A note has a text (required, at most 4000 characters) and may
have a name (at most 200 characters), an icon (--icon URL or --icon-id),
the icon's --alt and --hover texts, a --link and up to 10 --show-on flags,
which say where the note is shown. URLs must be absolute http or https
URLs. To change a note, remove it and add it again.`,
		example: "kbserver note add --text 'Campus access only.' mylib 169 86246\n" +
			"kbserver note add --text 'Ask at the desk.' --name Access --rank 1 --link https://mylib.example/help --show-on pf,az mylib 169 86246",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var n kb.Note
			var showOn string
			fs.StringVar(&n.Text, "text", "", "the note's `text` (required; at most 4000 characters)")
			fs.StringVar(&n.Name, "name", "", "the note's `name` (at most 200 characters)")
			fs.IntVar(&n.Rank, "rank", 0, "`position` among the resource's notes, 0 to 1000, lower first")
			fs.StringVar(&n.IconURL, "icon", "", "icon `URL` (absolute http or https)")
			fs.Int64Var(&n.IconID, "icon-id", 0, "icon `number` (0 or more)")
			fs.StringVar(&n.AltText, "alt", "", "alternative `text` of the icon")
			fs.StringVar(&n.HoverText, "hover", "", "`text` shown when the pointer rests on the note")
			fs.StringVar(&n.LinkURL, "link", "", "`URL` the note links to (absolute http or https)")
			fs.StringVar(&showOn, "show-on", "", "comma-separated `flags` saying where the note is shown (at most 10)")
			return func(args []string) error {
				custID, key, err := resourceArgs("note add", args)
				if err != nil {
					return err
				}
				n.PackageID, n.TitleID = key.PackageID, key.TitleID
				n.ShowOn = splitShowOn(showOn)
				if err := n.Validate(); err != nil {
					return usageErrorf("note add", "%s", kb.ErrorMessage(err))
				}
				return c.noteAdd(custID, n)
			}
		},
	}
}

func noteRemoveCommand() *command {
	return &command{
		name:    "note remove",
		args:    "CUSTID NOTEID",
		summary: "remove a customer's note from its resource",
		usesDB:  true,
		about: `Note remove deletes one of a customer's notes, by the id that note add
printed (note list shows the ids of a resource's notes).`,
		example: "kbserver note remove mylib 12",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("note remove", "CUSTID and NOTEID are missing: name the customer and the note")
				case len(args) == 1:
					return usageErrorf("note remove", "NOTEID is missing: give the note's id after the customer")
				case len(args) > 2:
					return usageErrorf("note remove", "unexpected argument %q: give CUSTID and NOTEID", args[2])
				}
				id, err := parseID("note remove", "NOTEID", args[1])
				if err != nil {
					return err
				}
				return c.noteRemove(args[0], id)
			}
		},
	}
}

func noteListCommand() *command {
	return &command{
		name:    "note list",
		args:    "CUSTID PACKAGEID TITLEID",
		summary: "list a customer's notes on a resource",
		usesDB:  true,
		about: `Note list prints a customer's notes on a resource, a title in a package,
one a line in the order publication search shows them: id, rank, name
(- for none) and text (on one line).`,
		example: "kbserver note list mylib 169 86246",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				custID, key, err := resourceArgs("note list", args)
				if err != nil {
					return err
				}
				return c.noteList(custID, key)
			}
		},
	}
}

// resourceArgs reads the CUSTID PACKAGEID TITLEID arguments of cmd.
func resourceArgs(cmd string, args []string) (string, kb.ResourceKey, error) {
	var key kb.ResourceKey
	switch {
	case len(args) == 0:
		return "", key, usageErrorf(cmd, "CUSTID, PACKAGEID and TITLEID are missing: name the customer and the resource (a title in a package)")
	case len(args) == 1:
		return "", key, usageErrorf(cmd, "PACKAGEID and TITLEID are missing: name the resource (a title in a package) after the customer")
	case len(args) == 2:
		return "", key, usageErrorf(cmd, "TITLEID is missing: name the title after the package")
	case len(args) > 3:
		return "", key, usageErrorf(cmd, "unexpected argument %q: give CUSTID PACKAGEID TITLEID (quote a text with spaces)", args[3])
	}
	var err error
	if key.PackageID, err = parseID(cmd, "PACKAGEID", args[1]); err != nil {
		return "", key, err
	}
	if key.TitleID, err = parseID(cmd, "TITLEID", args[2]); err != nil {
		return "", key, err
	}
	return args[0], key, nil
}

// parseID reads the id argument name of cmd: a whole number of 1 or more.
func parseID(cmd, name, s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, usageErrorf(cmd, "%s %q is not an id: give a whole number of 1 or more", name, s)
	}
	return id, nil
}

// splitShowOn splits the value of --show-on at commas, trimming spaces
// around each flag; "" is no flags. Empty flags are kept for
// kb.Note.Validate to report.
func splitShowOn(s string) []string {
	if strings.TrimSpace(s) == "" {
		return []string{}
	}
	flags := strings.Split(s, ",")
	for i, f := range flags {
		flags[i] = strings.TrimSpace(f)
	}
	return flags
}

func (c *cli) noteAdd(custID string, n kb.Note) error {
	st, err := c.openCustomerStore(custID)
	if err != nil {
		return err
	}
	defer st.Close()
	added, err := st.AddNote(c.ctx, custID, n)
	if err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return resourceNotFound(err, custID, kb.ResourceKey{PackageID: n.PackageID, TitleID: n.TitleID})
		}
		return fmt.Errorf("add the note: %w", err)
	}
	fmt.Fprintf(c.stdout, "Note %d added to title %d in package %d of customer %q.\n", added.ID, added.TitleID, added.PackageID, custID)
	return nil
}

// resourceNotFound explains a CodeNotFound error of AddNote.
func resourceNotFound(err error, custID string, k kb.ResourceKey) error {
	switch kb.ErrorMessage(err) {
	case kb.NotFound("Package").Message:
		return fmt.Errorf("package %d not found: it does not exist, or it is a custom package of a customer other than %q", k.PackageID, custID)
	case kb.NotFound("Title").Message:
		return fmt.Errorf("title %d not found in package %d: the package has no such title", k.TitleID, k.PackageID)
	}
	return fmt.Errorf("add the note: %w", err)
}

func (c *cli) noteRemove(custID string, id int64) error {
	st, err := c.openCustomerStore(custID)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RemoveNote(c.ctx, custID, id); err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return fmt.Errorf("customer %q has no note %d", custID, id)
		}
		return fmt.Errorf("remove note %d: %w", id, err)
	}
	fmt.Fprintf(c.stdout, "Note %d of customer %q removed.\n", id, custID)
	return nil
}

func (c *cli) noteList(custID string, k kb.ResourceKey) error {
	st, err := c.openCustomerStore(custID)
	if err != nil {
		return err
	}
	defer st.Close()
	notes, err := st.Notes(c.ctx, custID, []kb.ResourceKey{k})
	if err != nil {
		return fmt.Errorf("list notes: %w", err)
	}
	ns := notes[k]
	if len(ns) == 0 {
		fmt.Fprintf(c.stdout, "Customer %q has no notes on title %d in package %d.\n", custID, k.TitleID, k.PackageID)
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tRANK\tNAME\tTEXT")
	for _, n := range ns {
		name := oneLine(n.Name)
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\n", n.ID, n.Rank, name, oneLine(n.Text))
	}
	return tw.Flush()
}

// oneLine returns s with each run of white space (line breaks, tabs) made
// one space, for a listing of one note a line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
