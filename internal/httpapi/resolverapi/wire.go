package resolverapi

import "github.com/kbserver/kbserver/internal/kb"

// The JSON answers. Member names follow the holdings service's
// (camelCase, totalResults).

// tallyJSON is what is counted of a group. The clicks are absent from the
// rows by citing source, which a click does not know.
type tallyJSON struct {
	Requests        int64  `json:"requests"`
	FullText        int64  `json:"fullText"`
	NotFound        int64  `json:"notFound"`
	ClickThroughs   *int64 `json:"clickThroughs,omitempty"`
	AZClickThroughs *int64 `json:"azClickThroughs,omitempty"`
}

// statsRowJSON is one group: its key members (those of the grouping)
// and its tally.
type statsRowJSON struct {
	Month       string  `json:"month,omitempty"`
	PackageID   *int64  `json:"packageId,omitempty"`
	PackageName *string `json:"packageName,omitempty"`
	VendorName  *string `json:"vendorName,omitempty"`
	TitleID     *int64  `json:"titleId,omitempty"`
	TitleName   *string `json:"titleName,omitempty"`
	Source      *string `json:"source,omitempty"`
	tallyJSON
}

// statsJSON is the answer of GET resolver/statistics.
type statsJSON struct {
	By     kb.StatsGroup  `json:"by"`
	From   kb.Month       `json:"from"`
	To     kb.Month       `json:"to"`
	Totals tallyJSON      `json:"totals"`
	Rows   []statsRowJSON `json:"rows"`
}

func tallyOf(t kb.ResolverTally, clicks bool) tallyJSON {
	out := tallyJSON{Requests: t.Requests, FullText: t.FullText, NotFound: t.NotFound()}
	if clicks {
		out.ClickThroughs, out.AZClickThroughs = &t.ResolverClicks, &t.AZClicks
	}
	return out
}

func statsWire(st kb.ResolverStats) statsJSON {
	out := statsJSON{By: st.Query.By, From: st.Query.From, To: st.Query.To, Totals: tallyOf(st.Totals, true),
		Rows: make([]statsRowJSON, len(st.Rows))}
	for i, r := range st.Rows {
		row := statsRowJSON{tallyJSON: tallyOf(r.ResolverTally, st.Query.By != kb.StatsBySource)}
		switch st.Query.By {
		case kb.StatsByMonth:
			row.Month = string(r.Month)
		case kb.StatsByPackage:
			row.PackageID, row.PackageName, row.VendorName = &r.PackageID, &r.PackageName, &r.VendorName
		case kb.StatsByTitle:
			row.TitleID, row.TitleName = &r.TitleID, &r.TitleName
		case kb.StatsBySource:
			row.Source = &r.Source
		}
		out.Rows[i] = row
	}
	return out
}

// unmetItemJSON is one entry of the unmet demand.
type unmetItemJSON struct {
	Title      string   `json:"title"`
	Identifier string   `json:"identifier"`
	Requests   int64    `json:"requests"`
	LastMonth  kb.Month `json:"lastMonth"`
}

// unmetJSON is the answer of GET resolver/unmet.
type unmetJSON struct {
	From         kb.Month        `json:"from"`
	To           kb.Month        `json:"to"`
	TotalResults int             `json:"totalResults"`
	Unmet        []unmetItemJSON `json:"unmet"`
}

func unmetWire(q kb.UnmetQuery, l kb.UnmetList) unmetJSON {
	out := unmetJSON{From: q.From, To: q.To, TotalResults: l.Total, Unmet: make([]unmetItemJSON, len(l.Items))}
	for i, d := range l.Items {
		out.Unmet[i] = unmetItemJSON{Title: d.Title, Identifier: d.ID, Requests: d.Requests, LastMonth: d.LastMonth}
	}
	return out
}
