package holdingsapi

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// The KBART file of a holdings snapshot, which GET holdings answers to
// Accept: text/tab-separated-values and `kbserver export holdings` writes:
// the 25 KBART Phase II columns, then package_name, package_id,
// vendor_name, vendor_id and resource_type, then the non-standard columns
// of the snapshot's packages (as their KBART files had them).

// HoldingsExtraColumns are the columns of a holdings KBART file after the
// 25 standard ones.
var HoldingsExtraColumns = kb.HoldingColumns[kb.KBARTFieldCount:]

// HoldingsReader reads a customer's completed holdings snapshot.
type HoldingsReader interface {
	Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error
	HoldingsColumns(ctx context.Context, custID string) ([]string, error)
}

// WriteHoldingsKBART writes count rows of custID's completed snapshot from
// the 1-based row offset (count <= 0: every row) to w as a KBART file,
// streaming, and returns the number of rows written. Nothing is written to
// w when the store fails before the first row, and at most a 64 KiB
// buffer's worth before the rows are flushed.
func WriteHoldingsKBART(ctx context.Context, st HoldingsReader, custID string, offset, count int, w io.Writer) (int, error) {
	cols, err := st.HoldingsColumns(ctx, custID)
	if err != nil {
		return 0, err
	}
	kw := kbart.NewWriter(w, append(slices.Clone(HoldingsExtraColumns), cols...)...)
	at := make(map[string]int, len(cols))
	for i, c := range cols {
		at[c] = kb.HoldingFieldCount + i
	}
	row := make([]string, kb.HoldingFieldCount+len(cols))
	n := 0
	err = pipeHoldings(ctx, st, custID, offset, count, func(h *kb.Holding) error {
		n++
		copy(row, h.Values[:])
		clear(row[kb.HoldingFieldCount:])
		for _, e := range h.Extra {
			if i, ok := at[e.Column]; ok {
				row[i] = e.Value
			}
		}
		return kw.Write(row)
	})
	if err != nil {
		return n, err
	}
	return n, kw.Flush()
}

// HoldingsFileName names the KBART file of custID's snapshot by the KBART
// convention, ProviderName_Region_PackageName_YYYY-MM-DD.txt:
// kbserver_Global_<custid>-holdings_<date>.txt, where date is the day the
// snapshot was started (created, "yyyy-mm-dd hh:mm:ss"; today, UTC, when
// created is empty). Characters of custid other than letters, digits and
// hyphens, which the convention's underscores would confuse, become
// hyphens.
func HoldingsFileName(custID, created string) string {
	day, _, _ := strings.Cut(created, " ")
	if day == "" {
		day = time.Now().UTC().Format(time.DateOnly)
	}
	safe := strings.Map(func(r rune) rune {
		if r == '-' || r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, custID)
	return fmt.Sprintf("kbserver_Global_%s-holdings_%s.txt", safe, day)
}
