package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// run runs go test -json with args (./... when there are none) and
// reports through report.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		args = []string{"./..."}
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = stderr
	cmd.Env = os.Environ()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start go test: %w", err)
	}
	rerr := report(out, stdout)
	werr := cmd.Wait()
	if rerr != nil {
		return rerr
	}
	return werr
}

// exitCode prints err unless it is go test's own exit status, and
// returns the status to exit with.
func exitCode(err error, stderr io.Writer) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	fmt.Fprintf(stderr, "kbtest: %v\n", err)
	return 1
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of a build-output event
	Test       string
	Output     string
}

// skip is a test that skipped itself, and why.
type skip struct {
	pkg, test, reason string
}

// report reads go test -json from r and writes to w what go test ./...
// writes (each package's result line, the output of failed tests, build
// errors), then the tests that were skipped, with their reasons.
func report(r io.Reader, w io.Writer) error {
	type key struct{ pkg, test string }
	outputs := map[key][]string{} // by test; a package's own under test ""
	var skips []skip
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Fprintf(w, "%s\n", line) // not an event: pass it on
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "output":
			outputs[k] = append(outputs[k], e.Output)
		case "fail":
			// A failed test's output, and a failed package's own (FAIL,
			// a panic outside tests), as go test shows them.
			fmt.Fprint(w, strings.Join(outputs[k], ""))
			delete(outputs, k)
		case "skip":
			switch {
			case e.Test == "": // a package without tests
				for _, l := range outputs[k] {
					if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "?  ") {
						fmt.Fprint(w, l)
					}
				}
			case !strings.Contains(e.Test, "/"):
				skips = append(skips, skip{e.Package, e.Test, skipReason(outputs[k])})
			}
			delete(outputs, k)
		case "pass":
			if e.Test == "" {
				// A passed package: its "ok" or "?" line only (go test
				// hides the binary's PASS).
				for _, l := range outputs[k] {
					if strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "?  ") {
						fmt.Fprint(w, l)
					}
				}
			}
			delete(outputs, k)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read go test's output: %w", err)
	}
	writeSkips(w, skips)
	return nil
}

// skipReason returns the message a skipped test gave: its output lines
// but the "=== RUN" and "--- SKIP" ones, without their file:line prefix.
// (With -json a test's log comes before its "--- SKIP" line; without,
// after it.)
func skipReason(lines []string) string {
	var parts []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		if at, msg, ok := strings.Cut(t, ": "); ok && strings.Contains(at, ".go:") && !strings.Contains(at, " ") {
			t = msg
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "(no reason given)"
	}
	return strings.Join(parts, " ")
}

// writeSkips writes the skipped tests, grouped by reason.
func writeSkips(w io.Writer, skips []skip) {
	if len(skips) == 0 {
		fmt.Fprintln(w, "kbtest: no test was skipped.")
		return
	}
	byReason := map[string][]string{}
	for _, s := range skips {
		byReason[s.reason] = append(byReason[s.reason], strings.TrimPrefix(s.pkg, "github.com/kbserver/kbserver/")+" "+s.test)
	}
	reasons := make([]string, 0, len(byReason))
	for r := range byReason {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	fmt.Fprintf(w, "kbtest: %d tests were skipped; this run did not test them:\n", len(skips))
	for _, r := range reasons {
		tests := byReason[r]
		slices.Sort(tests)
		fmt.Fprintf(w, "  %s\n", r)
		for _, t := range tests {
			fmt.Fprintf(w, "      %s\n", t)
		}
	}
}
