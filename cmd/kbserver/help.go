package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

func helpCommand() *command {
	return &command{
		name:    "help",
		args:    "[COMMAND]",
		summary: "show help for kbserver or one of its commands",
		about: "Help shows what a command does, its flags and examples. Every command also\n" +
			"accepts -h or --help.",
		example: "kbserver help\nkbserver help import kbart\nkbserver serve --help",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error { return c.help(args) }
		},
	}
}

// help prints the help of the command args name to stdout.
func (c *cli) help(args []string) error {
	if len(args) == 0 {
		printTopHelp(c.stdout)
		return nil
	}
	all := commands()
	name := strings.Join(args, " ")
	if cmd := find(all, name); cmd != nil {
		fs, _ := c.newFlagSet(cmd)
		printHelp(c.stdout, cmd, fs)
		return nil
	}
	if len(subcommands(all, name)) > 0 {
		printGroupHelp(c.stdout, name)
		return nil
	}
	return usageErrorf("help", "no help for %q: commands are %s", name, strings.Join(topNames(), ", "))
}

// printTopHelp prints the help of kbserver itself.
func printTopHelp(w io.Writer) {
	fmt.Fprint(w, `kbserver is a self-hostable knowledge-base server for library e-resources:
vendors, their packages and the titles in them, loaded from KBART files and
served to library systems over an HTTP API.

Usage:
  kbserver [--db DB] COMMAND [flags] [arguments]

Commands:
`)
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-16s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprint(w, `
Global flags:
  --db DB        the database: a SQLite file path or a postgres:// URL (env
                 KBSERVER_DB; default "kbserver.db" in the working directory).
                 serve, import kbart, gen and customer add create a missing
                 SQLite file; the other commands refuse a path with no
                 database. It may be given before or after the command.

Examples:
  kbserver serve --demo
  kbserver --db kb.db import kbart --vendor "Example Press" --package "Example Journals" titles.txt
  kbserver customer add mylib --name "My Library"
  kbserver apikey add mylib
  kbserver proxy add mylib EZProxy --url-mask 'https://proxy.mylib.example/login?url={targetURL}'
  kbserver export holdings mylib -o exports/
  kbserver --db postgres://kbserver@db.example.org/kb serve

Run 'kbserver help COMMAND' for the flags and examples of a command.
`)
}

// printGroupHelp prints the help of a group of subcommands, e.g. "apikey".
func printGroupHelp(w io.Writer, group string) {
	fmt.Fprintf(w, "Usage:\n  kbserver %s SUBCOMMAND [flags] [arguments]\n\nSubcommands:\n", group)
	for _, cmd := range commands() {
		if strings.HasPrefix(cmd.name, group+" ") {
			fmt.Fprintf(w, "  %-16s %s\n", cmd.name, cmd.summary)
		}
	}
	fmt.Fprintf(w, "\nRun 'kbserver help %s SUBCOMMAND' for its flags and examples.\n", group)
}

func usageLine(cmd *command) string {
	s := "kbserver " + cmd.name + " [flags]"
	if cmd.args != "" {
		s += " " + cmd.args
	}
	return s
}

// printHelp prints the help of one command: usage, description, flags
// and examples.
func printHelp(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage:\n  %s\n\n%s\n", usageLine(cmd), cmd.about)
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprint(w, "\nFlags:\n")
			first = false
		}
		arg, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		if arg != "" {
			line += " " + arg
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "        %s", usage)
		if cmd.envFlags && f.Name != "db" {
			fmt.Fprintf(w, " (env %s)", envName(f.Name))
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.Name != "db" {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					fmt.Fprintf(w, " (default %q)", f.DefValue)
				} else {
					fmt.Fprintf(w, " (default %s)", f.DefValue)
				}
			}
		}
		fmt.Fprintln(w)
	})
	fmt.Fprint(w, "\nExamples:\n")
	for line := range strings.SplitSeq(cmd.example, "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}
