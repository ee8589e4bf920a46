package feeds

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// A customer's holdings feed (NISO RP-26): the institution's file selects
// the package's titles for the customer (kb.HoldingsStore). Its rows are
// matched to the package's titles by the identity rules
// (kb.PickHoldingsTitle), the selection it would make is counted by a dry
// run, and it is held by kb.FeedChecks (the share of the customer's
// selected titles it would deselect) or applied in one transaction.

// matchBatch is the number of rows matched to the package at a time.
const matchBatch = 2000

// holdingsPlan is what a holdings file would do.
type holdingsPlan struct {
	pkg    kb.FeedPackage
	titles []int64 // the titles the file names, ascending
	// keep are the titles that rows the KBART reader refused name: left
	// as they are.
	keep    []int64
	counts  kb.FeedCounts
	preview kb.HoldingsResult // a dry run of the selection
}

// planHoldings reads the holdings file r (empty: no body) and matches its
// rows to f's package, and counts what setting the selection would do. A
// row the KBART reader refused is matched too, and the title it names is
// left as it is (selected or not), as an import keeps the title a refused
// row names in its package. The error is CodeNotFound when the package is
// not in the knowledge base, a rule's code (a Complete package named in
// part) or another failure.
func (d Deps) planHoldings(ctx context.Context, f kb.Feed, r io.Reader, empty bool) (holdingsPlan, error) {
	p := holdingsPlan{counts: kb.FeedCounts{Holdings: true, Empty: empty}}
	pkg, ok, err := d.Store.FeedPackage(ctx, f.Vendor, f.Package)
	if err != nil {
		return p, err
	}
	if !ok {
		return p, kb.Errorf(kb.CodeNotFound, "the package %s / %s is not in the knowledge base: a holdings feed selects the titles of one of its packages", f.Vendor, f.Package)
	}
	p.pkg = pkg
	if !empty {
		if err := p.match(ctx, d.Store, r); err != nil {
			return p, err
		}
		if !p.counts.KBARTHeader {
			return p, nil // held: nothing to count
		}
	}
	p.preview, err = d.Store.SetHoldings(ctx, f.CustomerID, pkg.VendorID, pkg.PackageID, p.titles, kb.HoldingsWrite{FeedID: f.ID, DryRun: true, Keep: p.keep})
	if err != nil {
		return p, err
	}
	p.counts.PackageTitles, p.counts.Removed = p.preview.WasSelected, len(p.preview.Deselected)
	return p, nil
}

// match reads the KBART file r and matches its rows to the package, a
// batch at a time; a file that is not KBART leaves counts.KBARTHeader
// false.
func (p *holdingsPlan) match(ctx context.Context, st kb.HoldingsStore, r io.Reader) error {
	kr, err := kbart.NewReader(r)
	if errors.Is(err, kbart.ErrNotKBART) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the holdings file: %w", err)
	}
	p.counts.KBARTHeader = true
	src := kbart.NewSource(kbart.SourceFile{Name: "the holdings file", Reader: kr})
	batch := make([]kb.HoldingsRow, 0, matchBatch)
	refused := make([]bool, 0, matchBatch)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		ids, err := st.MatchHoldings(ctx, p.pkg.PackageID, batch)
		if err != nil {
			return err
		}
		for i, id := range ids {
			switch {
			case refused[i]:
				if id != 0 {
					p.keep = append(p.keep, id)
				}
			case id == 0:
				p.counts.RowsUnmatched++
			default:
				p.titles = append(p.titles, id)
			}
		}
		batch, refused = batch[:0], refused[:0]
		return nil
	}
	for {
		row, err := src.Next()
		if errors.Is(err, io.EOF) || errors.Is(err, kbart.ErrNoRows) {
			break
		}
		if err != nil {
			return fmt.Errorf("read the holdings file: %w", err)
		}
		batch, refused = append(batch, holdingsRow(row)), append(refused, row.Rejected)
		if len(batch) == matchBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	p.counts.RowsRead, p.counts.RowsRefused = src.Read(), src.Rejected()
	p.titles, p.keep = kb.SortedUnique(p.titles), kb.SortedUnique(p.keep)
	return nil
}

// holdingsRow is what the match reads of an import row: its title_id, its
// valid identifiers normalised, and its name folded.
func holdingsRow(row kb.ImportRow) kb.HoldingsRow {
	h := kb.HoldingsRow{Line: row.Line, ProviderID: strings.TrimSpace(row.KBART[kbart.TitleID]),
		Name: kb.Fold(strings.TrimSpace(row.KBART[kbart.PublicationTitle]))}
	for _, field := range []kbart.Field{kbart.PrintIdentifier, kbart.OnlineIdentifier} {
		s := strings.TrimSpace(row.KBART[field])
		var norm string
		var ok bool
		switch {
		case kb.ISSNShaped(s):
			norm, ok = kb.NormalizeISSN(s)
		case kb.ISBNShaped(s):
			norm, ok = kb.NormalizeISBN(s)
		}
		if ok {
			h.Norms = append(h.Norms, norm)
		}
	}
	return h
}

// checkAndApplyHoldings plans the holdings file, holds it when
// kb.FeedChecks says so, and sets the customer's selection otherwise.
func (d Deps) checkAndApplyHoldings(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, file *spooled) (kb.FeedRun, error) {
	plan, err := d.planSpooled(ctx, f, file, run.Bytes == 0)
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	if v := kb.FeedChecks(plan.counts, f.MaxRemoval); v.Held {
		r, err := file.open()
		if err != nil {
			return d.fail(ctx, f, holder, run, err)
		}
		defer r.Close()
		run.Outcome, run.Message = kb.FeedHeld, "held for review: "+v.Reason
		run.Added, run.Removed = len(plan.preview.Selected), len(plan.preview.Deselected)
		return d.record(ctx, f, holder, run, r)
	}
	return d.applyHoldings(ctx, f, holder, run, plan, "")
}

// planSpooled plans the spooled holdings file.
func (d Deps) planSpooled(ctx context.Context, f kb.Feed, file *spooled, empty bool) (holdingsPlan, error) {
	r, err := file.open()
	if err != nil {
		return holdingsPlan{}, err
	}
	defer r.Close()
	return d.planHoldings(ctx, f, r, empty)
}

// applyHoldings sets the customer's selection as plan says and records an
// applied run, its message after prefix.
func (d Deps) applyHoldings(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, plan holdingsPlan, prefix string) (kb.FeedRun, error) {
	res, err := d.Store.SetHoldings(ctx, f.CustomerID, plan.pkg.VendorID, plan.pkg.PackageID, plan.titles, kb.HoldingsWrite{FeedID: f.ID, Keep: plan.keep})
	if err != nil {
		return d.fail(ctx, f, holder, run, fmt.Errorf("set the holdings: %w", err))
	}
	run.Outcome = kb.FeedApplied
	run.Added, run.Removed, run.Changed = len(res.Selected), len(res.Deselected), 0
	run.Message = prefix + fmt.Sprintf("applied: %d titles selected, %d deselected, %d kept as they were; %d of the package's titles selected now "+
		"(%d rows read, %d refused, %d named no title of the package)",
		run.Added, run.Removed, res.Kept, res.NowSelected, plan.counts.RowsRead, plan.counts.RowsRefused, plan.counts.RowsUnmatched)

	return d.record(ctx, f, holder, run, nil)
}

// HoldingsPreview is what a holdings feed's held file would do if it were
// approved now, for a person to review: the counts of the checks and the
// titles it would select and deselect.
type HoldingsPreview struct {
	Counts kb.FeedCounts
	kb.HoldingsResult
}

// PreviewHeld counts what approving held run runID of holdings feed f
// would do now. The run must be f's and held with its file (CodeInvalid,
// NotFound("Feed run") otherwise).
func PreviewHeld(ctx context.Context, d Deps, f kb.Feed, runID int64) (HoldingsPreview, error) {
	if !f.Holdings {
		return HoldingsPreview{}, kb.Errorf(kb.CodeInvalid, "%v is not a holdings feed", f)
	}
	file, held, err := heldFile(ctx, d, f, runID)
	if err != nil {
		return HoldingsPreview{}, err
	}
	defer file.Close()
	plan, err := d.planHoldings(ctx, f, file, held.Bytes == 0)
	if err != nil {
		return HoldingsPreview{}, err
	}
	if !plan.counts.Empty && !plan.counts.KBARTHeader {
		return HoldingsPreview{}, kb.Errorf(kb.CodeInvalid, "run %d's file is not a KBART file: it cannot be approved", runID)
	}
	return HoldingsPreview{Counts: plan.counts, HoldingsResult: plan.preview}, nil
}
