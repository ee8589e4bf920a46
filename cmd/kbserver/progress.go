package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newBar returns a progress bar on w (a terminal) counting to max, or
// spinning when max is -1.
func newBar(w io.Writer, max int64, desc string, bytes bool) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(true),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("rows"))
	}
	return progressbar.NewOptions64(max, opts...)
}

// countProgress returns a progress callback for a count of items, such as
// the generator's: a bar when w is a terminal, else a line at every tenth.
// finish ends the display.
func countProgress(w io.Writer, desc, unit string) (progress func(done, total int), finish func()) {
	if isTerminal(w) {
		var bar *progressbar.ProgressBar
		progress = func(done, total int) {
			if bar == nil {
				bar = newBar(w, int64(total), desc, false)
			}
			bar.Set64(int64(done))
		}
		finish = func() {
			if bar != nil {
				bar.Finish()
				bar.Exit()
			}
		}
		return progress, finish
	}
	next := 0 // the next tenth to report
	progress = func(done, total int) {
		if total <= 0 {
			return
		}
		if tenth := done * 10 / total; tenth >= next && tenth > 0 {
			fmt.Fprintf(w, "%s: %d%% (%d of %d %s)\n", desc, tenth*10, done, total, unit)
			next = tenth + 1
		}
	}
	return progress, func() {}
}
