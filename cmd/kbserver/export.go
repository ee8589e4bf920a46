package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/holdingsapi"
	"github.com/kbserver/kbserver/internal/kb"
)

// defaultExportWait bounds how long export holdings waits for the build.
const defaultExportWait = 10 * time.Minute

func exportHoldingsCommand() *command {
	return &command{
		name:    "export holdings",
		args:    "CUSTID",
		summary: "write a customer's holdings as a KBART file",
		usesDB:  true,
		about: `Export holdings builds a holdings snapshot of the customer, as POST
/rm/rmaccounts/CUSTID/holdings does, waits for it, and writes it as a KBART
Phase II file: the 25 standard columns, then package_name, package_id,
vendor_name, vendor_id and resource_type, one row per coverage range of
every selected, visible resource. It is the file GET holdings answers with
Accept: text/tab-separated-values.

When a build is already in progress (started by the server), export waits
for it instead of starting another. The file goes to standard output, to the
-o file, or, when -o names a directory, to the file named there by the KBART
convention: kbserver_Global_CUSTID-holdings_YYYY-MM-DD.txt (the day of the
snapshot). A file is replaced only once it is complete. The number of rows
and where they went are printed on stderr.`,
		example: "kbserver export holdings mylib > holdings.txt\n" +
			"kbserver export holdings mylib -o exports/\n" +
			"kbserver --db kb.db export holdings mylib -o mylib.txt --wait 30m",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			var out string
			var wait time.Duration
			fs.StringVar(&out, "o", "", "output `file` or directory (default: standard output)")
			fs.DurationVar(&wait, "wait", defaultExportWait, "longest `duration` to wait for the snapshot to be built (0: no limit)")
			return func(args []string) error {
				switch {
				case len(args) == 0:
					return usageErrorf("export holdings", "CUSTID is missing: name the customer whose holdings to export")
				case len(args) > 1:
					return usageErrorf("export holdings", "unexpected argument %q: give one CUSTID (write to a file with -o FILE)", args[1])
				case wait < 0:
					return usageErrorf("export holdings", "--wait %v is negative: give a duration such as 10m, or 0 for no limit", wait)
				}
				return c.exportHoldings(args[0], out, wait)
			}
		},
	}
}

// exportHoldings builds custID's snapshot (or waits for the build in
// progress) and writes it to out.
func (c *cli) exportHoldings(custID, out string, wait time.Duration) error {
	st, err := c.openCustomerStore(custID)
	if err != nil {
		return err
	}
	defer st.Close()
	status, err := c.buildSnapshot(st, custID, wait)
	if err != nil {
		return err
	}

	if out == "" || out == "-" {
		n, err := holdingsapi.WriteHoldingsKBART(c.ctx, st, custID, 1, 0, c.stdout)
		if err != nil {
			return c.interrupted(err, "the export was cut short")
		}
		fmt.Fprintf(c.stderr, "Wrote %d holdings of customer %q (snapshot of %s UTC) to standard output.\n", n, custID, status.Created)
		return nil
	}
	if isDir(out) {
		out = filepath.Join(out, holdingsapi.HoldingsFileName(custID, status.Created))
	}
	n, err := writeFileAtomically(out, func(w io.Writer) (int, error) {
		return holdingsapi.WriteHoldingsKBART(c.ctx, st, custID, 1, 0, w)
	})
	if err != nil {
		return c.interrupted(err, out+" was not written")
	}
	fmt.Fprintf(c.stderr, "Wrote %d holdings of customer %q (snapshot of %s UTC) to %s.\n", n, custID, status.Created, out)
	return nil
}

// buildSnapshot starts a snapshot of custID, or joins the build in
// progress, and waits up to wait (0: no limit) for it to complete.
func (c *cli) buildSnapshot(st kb.Store, custID string, wait time.Duration) (kb.SnapshotStatus, error) {
	err := st.StartSnapshot(c.ctx, custID, false)
	switch kb.ErrorCode(err) {
	case 0:
		fmt.Fprintf(c.stderr, "Building the holdings snapshot of customer %q…\n", custID)
	case kb.CodeConflict:
		fmt.Fprintf(c.stderr, "A holdings snapshot of customer %q is being built already; waiting for it…\n", custID)
		// A build a stopped server left behind resumes here, and so, on a
		// store that resumes periodically, does one whose server dies
		// while this waits; one a running server is doing finishes there.
		ctx, stop := context.WithCancel(c.ctx)
		var jobs runner
		defer func() {
			stop()
			jobs.Wait()
		}()
		for _, j := range st.Jobs() {
			if j.Name != kb.JobResumeSnapshots {
				continue
			}
			if err := jobs.Start(ctx, j); err != nil {
				return kb.SnapshotStatus{}, err
			}
		}
	default:
		return kb.SnapshotStatus{}, err
	}
	ctx := c.ctx
	if wait > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	status, err := st.WaitSnapshot(ctx, custID)
	switch {
	case errors.Is(err, context.DeadlineExceeded) && c.ctx.Err() == nil:
		return status, fmt.Errorf("the snapshot was not built within %v (--wait): it goes on in the server, if one runs; export again later", wait)
	case err != nil:
		return status, c.interrupted(err, "stopped waiting for the snapshot")
	case status.Status == kb.SnapshotFailed:
		return status, fmt.Errorf("the holdings snapshot of customer %q failed (see the server log); run export again to retry", custID)
	case status.Status != kb.SnapshotCompleted:
		return status, fmt.Errorf("the holdings snapshot of customer %q is %q, not Completed", custID, status.Status)
	}
	return status, nil
}

// isDir reports whether path names a directory: an existing one, or a
// name ending in a path separator.
func isDir(path string) bool {
	if strings.HasSuffix(path, string(filepath.Separator)) || strings.HasSuffix(path, "/") {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// writeFileAtomically writes path with write, through a temporary file in
// the same directory that replaces path only when write succeeded.
func writeFileAtomically(path string, write func(io.Writer) (int, error)) (int, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return 0, err
	}
	n, err := write(f)
	err = errors.Join(err, f.Chmod(0o644), f.Close())
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return 0, err
	}
	return n, nil
}
