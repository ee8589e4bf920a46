package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/store"
)

// defaultDB is the database file used when neither --db nor KBSERVER_DB
// names one.
const defaultDB = "kbserver.db"

// cli is what every command needs: the context, the environment, the
// standard streams and the --db value.
type cli struct {
	ctx    context.Context
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	db     string
}

// command is one kbserver command, such as "serve" or "import kbart".
type command struct {
	name    string // as typed after "kbserver"
	args    string // the positional arguments, for the usage line
	summary string // one line for the command list
	about   string // what the command does
	example string // example invocations, one per line
	usesDB  bool   // the command takes --db
	// envFlags makes every flag of the command settable by an
	// environment variable too (envName); the command line wins.
	envFlags bool
	// setup defines the command's flags on fs and returns the function that
	// runs the command, once the flags are parsed, with the positional
	// arguments.
	setup func(c *cli, fs *flag.FlagSet) func(args []string) error
}

// commands lists the commands in the order help shows them.
func commands() []*command {
	return []*command{
		serveCommand(),
		importKBARTCommand(),
		changesCommand(),
		retiredPurgeCommand(),
		vacuumCommand(),
		customerAddCommand(),
		customerListCommand(),
		apikeyAddCommand(),
		apikeyListCommand(),
		apikeyRevokeCommand(),
		proxyAddCommand(),
		proxyRemoveCommand(),
		profileAddCommand(),
		profileListCommand(),
		packageListCommand(),
		feedAddCommand(),
		feedListCommand(),
		feedShowCommand(),
		feedRunCommand(),
		feedApproveCommand(),
		feedRemoveCommand(),
		noteAddCommand(),
		noteRemoveCommand(),
		noteListCommand(),
		exportHoldingsCommand(),
		genCommand(),
		genKBARTCommand(),
		helpCommand(),
	}
}

// usageError is a mistake in the command line; kbserver exits with
// status 2 for it.
type usageError struct {
	cmd      string // the command, for the hint; "" for the top level
	msg      string
	reported bool // the flag package has printed the message already
}

func (e *usageError) Error() string {
	if e.msg == "" {
		return "invalid command line"
	}
	return e.msg
}

func usageErrorf(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// exitError ends a command that did its work but must exit with another
// status than 0 (import kbart with rejected rows: 3).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// reportError prints err to w, unless it has been printed already, and
// returns the exit status: 2 for a usage error, an exitError's own, 1
// otherwise.
func reportError(w io.Writer, err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		fmt.Fprintf(w, "kbserver: %s\n", ee.msg)
		return ee.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if !ue.reported {
			fmt.Fprintf(w, "kbserver: %s\n", ue.msg)
			fmt.Fprintln(w, helpHint(ue.cmd))
		}
		return 2
	}
	fmt.Fprintf(w, "kbserver: %v\n", err)
	return 1
}

func helpHint(cmd string) string {
	if cmd == "" {
		return "Run 'kbserver help' for usage."
	}
	return "Run 'kbserver help " + cmd + "' for usage."
}

// run runs kbserver with the command-line arguments args (without the
// program name). It returns nil on success, including when help was asked
// for.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	c := &cli{ctx: ctx, getenv: getenv, stdin: stdin, stdout: stdout, stderr: stderr}
	c.db = getenv("KBSERVER_DB")
	if c.db == "" {
		c.db = defaultDB
	}
	fs := flag.NewFlagSet("kbserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	fs.StringVar(&c.db, "db", c.db, dbFlagUsage)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printTopHelp(stdout)
			return nil
		}
		fmt.Fprintln(stderr, helpHint(""))
		return &usageError{msg: err.Error(), reported: true}
	}
	args = fs.Args()
	if len(args) == 0 {
		return usageErrorf("", "no command given: use one of %s", strings.Join(topNames(), ", "))
	}
	cmd, rest, err := lookup(args)
	if err != nil {
		return err
	}
	if cmd == nil { // a group asked for help: "kbserver import --help"
		printGroupHelp(stdout, args[0])
		return nil
	}
	return c.exec(cmd, rest)
}

// lookup finds the command args start with and returns it with the
// remaining arguments. For a group of subcommands followed by -h or
// --help it returns a nil command.
func lookup(args []string) (*command, []string, error) {
	all := commands()
	name := args[0]
	if len(args) > 1 {
		if cmd := find(all, name+" "+args[1]); cmd != nil {
			return cmd, args[2:], nil
		}
	}
	if cmd := find(all, name); cmd != nil {
		return cmd, args[1:], nil
	}
	if subs := subcommands(all, name); len(subs) > 0 {
		switch {
		case len(args) == 1:
			return nil, nil, usageErrorf(name, "%s needs a subcommand: %s", name, strings.Join(subs, ", "))
		case isHelpFlag(args[1]):
			return nil, nil, nil
		}
		return nil, nil, usageErrorf(name, "unknown subcommand %q of %s: use %s", args[1], name, strings.Join(subs, ", "))
	}
	return nil, nil, usageErrorf("", "unknown command %q: use one of %s", name, strings.Join(topNames(), ", "))
}

func isHelpFlag(s string) bool {
	switch s {
	case "-h", "-help", "--help", "--h":
		return true
	}
	return false
}

func find(all []*command, name string) *command {
	for _, c := range all {
		if c.name == name {
			return c
		}
	}
	return nil
}

// subcommands returns the second words of the commands named "group …".
func subcommands(all []*command, group string) []string {
	var subs []string
	for _, c := range all {
		if sub, ok := strings.CutPrefix(c.name, group+" "); ok {
			subs = append(subs, sub)
		}
	}
	return subs
}

// topNames returns the first words of the commands, once each.
func topNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, c := range commands() {
		first, _, _ := strings.Cut(c.name, " ")
		if !seen[first] {
			seen[first] = true
			names = append(names, first)
		}
	}
	return names
}

const dbFlagUsage = "the `database`: a SQLite file path (serve, import kbart, gen and customer add create a missing one) or a postgres:// URL (env KBSERVER_DB; default \"kbserver.db\")"

// newFlagSet returns the flag set of cmd, its flags defined, and the
// function that runs it.
func (c *cli) newFlagSet(cmd *command) (*flag.FlagSet, func([]string) error) {
	fs := flag.NewFlagSet("kbserver "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {}
	if cmd.usesDB {
		fs.StringVar(&c.db, "db", c.db, dbFlagUsage)
	}
	return fs, cmd.setup(c, fs)
}

// envName is the environment variable of a flag of a command with
// envFlags: KBSERVER_ and the name in capitals, "-" as "_".
func envName(flagName string) string {
	return "KBSERVER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// setFromEnv sets every flag of fs that the command line did not set and
// whose environment variable is set and not empty (--db reads KBSERVER_DB
// already, in run). A value the flag refuses is a usage error naming the
// variable.
func (c *cli) setFromEnv(cmd *command, fs *flag.FlagSet) error {
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || f.Name == "db" || onCommandLine[f.Name] {
			return
		}
		name := envName(f.Name)
		if v := c.getenv(name); v != "" {
			if e := fs.Set(f.Name, v); e != nil {
				err = usageErrorf(cmd.name, "environment variable %s=%q: %v", name, v, e)
			}
		}
	})
	return err
}

// exec parses the flags of cmd, which may come before, between or after
// its positional arguments, and runs it.
func (c *cli) exec(cmd *command, args []string) error {
	fs, runCmd := c.newFlagSet(cmd)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(c.stdout, cmd, fs)
			return nil
		}
		fmt.Fprintf(c.stderr, "usage: %s\n%s\n", usageLine(cmd), helpHint(cmd.name))
		return &usageError{cmd: cmd.name, msg: err.Error(), reported: true}
	}
	if cmd.envFlags {
		if err := c.setFromEnv(cmd, fs); err != nil {
			return err
		}
	}
	return runCmd(pos)
}

// parseInterspersed parses args with fs, allowing flags after positional
// arguments ("import kbart FILE --vendor V"); everything after "--" is
// positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// openStore opens the store --db names, a postgres:// URL or the path of
// an existing SQLite file: a command that reads a knowledge base refuses
// a path where there is none rather than make an empty one there (a
// mistyped --db would otherwise answer "nothing found").
func (c *cli) openStore() (kb.Store, error) {
	if err := c.checkDB(); err != nil {
		return nil, err
	}
	if !store.IsPostgres(c.db) {
		if err := existingDB(c.db); err != nil {
			return nil, err
		}
	}
	return store.Open(c.ctx, c.db)
}

// createStore opens the store --db names, making a new SQLite file when
// there is none: serve, import kbart, gen and customer add start a
// knowledge base.
func (c *cli) createStore() (kb.Store, error) {
	if err := c.checkDB(); err != nil {
		return nil, err
	}
	return store.Open(c.ctx, c.db)
}

// loadStore opens the store as createStore does, for import kbart:
// reads memory-mapped on SQLite (store.OpenToLoad). Not gen: its
// thousands of imports grow the file, and each connection maps it again
// (10% slower, BENCHMARKS.md, issue 39).
func (c *cli) loadStore() (kb.Store, error) {
	if err := c.checkDB(); err != nil {
		return nil, err
	}
	return store.OpenToLoad(c.ctx, c.db)
}

func (c *cli) checkDB() error {
	if strings.TrimSpace(c.db) == "" {
		return &usageError{msg: "--db is empty: give a SQLite file path or a postgres:// URL"}
	}
	return nil
}

// existingDB returns an error naming path when no SQLite database is
// there, and its folder when that is missing too.
func existingDB(path string) error {
	_, err := os.Stat(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil // a file there (Open says if it is no database), or a problem Open reports
	}
	hint := "give the path of an existing knowledge base with --db (or KBSERVER_DB), or make one with 'kbserver serve', 'kbserver import kbart' or 'kbserver customer add'"
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("database %s does not exist, nor does its folder %s: %s", path, dir, hint)
	}
	return fmt.Errorf("database %s does not exist: %s", path, hint)
}

// interrupted turns the error of an operation stopped by SIGINT or SIGTERM
// into a clear message.
func (c *cli) interrupted(err error, what string) error {
	if err != nil && c.ctx.Err() != nil && errors.Is(err, c.ctx.Err()) {
		return fmt.Errorf("interrupted: %s", what)
	}
	return err
}
