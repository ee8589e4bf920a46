package analysisapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// The KBART files of the lists: every title of an overlap's list as the
// KBART rows of one package (the unique list's package; for shared and
// partial, the first package of packageids; against the holdings, the
// package compared), the customer's custom coverage in place of the
// publisher's ranges, as a holdings snapshot has them.

// KBARTPackage returns the package whose rows the KBART file of list q
// gives.
func KBARTPackage(q kb.OverlapQuery) int64 {
	if q.List.Kind == kb.ListUnique {
		return q.List.PackageID
	}
	return q.PackageIDs[0]
}

// KBARTFileName returns the name of the KBART file of the list q asks
// for: the CSV file's name with .txt.
func KBARTFileName(custID string, q kb.OverlapQuery) string {
	return strings.TrimSuffix(ListFileName(custID, q), ".csv") + ".txt"
}

// WriteListKBART answers every title of the list q asks for (q.List is
// not kb.ListNone) as a KBART file; an error before the first line is
// returned unwritten, to be answered as one. A title without a KBART row
// in the package (a custom title, a title added to a custom package) is
// left out. The customer's custom coverage replaces the publisher's
// ranges, its custom embargo the embargo_info (as in a snapshot).
func WriteListKBART(ctx context.Context, w http.ResponseWriter, svc *analysis.Service, store Store, custID string, q kb.OverlapQuery) error {
	ids, _, err := svc.ListAll(ctx, custID, q)
	if err != nil {
		return err
	}
	pkg := KBARTPackage(q)
	var kw *kbart.Writer
	start := func() {
		h := w.Header()
		h.Set("Content-Type", "text/tab-separated-values; charset=utf-8")
		h.Set("Content-Disposition", `attachment; filename="`+KBARTFileName(custID, q)+`"`)
		h.Set("X-Content-Type-Options", "nosniff")
		kw = kbart.NewWriter(w)
	}
	for chunk := range slices.Chunk(ids, csvChunk) {
		keys := make([]kb.ResourceKey, len(chunk))
		for i, id := range chunk {
			keys[i] = kb.ResourceKey{PackageID: pkg, TitleID: id}
		}
		rows, err := store.ResourceKBART(ctx, keys)
		if err != nil {
			return err
		}
		cov, err := store.HeldCoverages(ctx, custID, []int64{pkg}, chunk)
		if err != nil {
			return err
		}
		if kw == nil {
			start() // once the first chunk's rows are read: an error before is answered as one
		}
		for _, k := range keys {
			text := rows[k]
			if text == "" {
				continue
			}
			lines := strings.Split(text, "\n")
			if c := cov[k]; c.Custom {
				lines = kbart.RowsWithCoverage(lines[0], c.Ranges)
			}
			for _, l := range lines {
				f := strings.Split(l, "\t")
				if len(f) < int(kbart.NumFields) {
					f = append(f, make([]string, int(kbart.NumFields)-len(f))...)
				}
				if c := cov[k]; c.CustomEmbargo {
					f[kbart.EmbargoInfo] = c.Embargo.KBART()
				}
				if err := kw.Write(f[:kbart.NumFields]); err != nil {
					return err
				}
			}
		}
	}
	if kw == nil {
		start() // an empty list: the header line alone
	}
	return kw.Flush()
}
