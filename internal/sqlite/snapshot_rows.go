package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// Holdings streams rows of the customer's completed snapshot, from the
// 1-based row offset: a seek on the snapshot's row offsets, then one
// ordered scan, so a page costs the same wherever it starts.
func (s *Store) Holdings(ctx context.Context, custID string, offset, count int, fn func(*kb.Holding) error) error {
	// One read transaction: the status and the rows come from the same
	// state, even if a forced POST starts a new build meanwhile.
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("holdings of %s: %w", custID, err)
	}
	defer tx.Rollback()
	st, err := snapshotStatus(ctx, tx, custID)
	if err != nil {
		return err
	}
	switch st.Status {
	case kb.SnapshotInProgress:
		return kb.Errorf(kb.CodeConflict, "The holdings snapshot is being built; GET holdings/status until it is Completed.")
	case kb.SnapshotNone:
		return kb.Errorf(kb.CodeNotFound, "No holdings snapshot: POST holdings first, then GET holdings/status until it is Completed.")
	case kb.SnapshotFailed:
		return kb.Errorf(kb.CodeNotFound, "The last holdings snapshot failed: POST holdings again.")
	}
	if offset < 1 {
		offset = 1
	}
	if offset > st.Total {
		return nil
	}
	var start int
	err = tx.QueryRowContext(ctx, `SELECT seq FROM snapshot_rows WHERE customer_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`,
		custID, offset).Scan(&start)
	if err != nil {
		return fmt.Errorf("holdings of %s: %w", custID, err)
	}
	// A resource without KBART rows (a custom title) gets its identifiers
	// here, in the one query: a second query per row while this one is
	// open would hold two reader connections per download.
	rows, err := tx.QueryContext(ctx, `SELECT sr.seq, sr.package_id, sr.title_id, sr.kbart, sr.title_name, sr.pub_type,
		COALESCE(p.name, sr.package_name), sr.vendor_id, COALESCE(v.name, sr.vendor_name), sr.url,
		sr.custom_coverage, sr.coverage_statement, sr.embargo_unit, sr.embargo_value, sr.url_mask,
		COALESCE(t.name, sr.title_name), COALESCE(t.publisher, ''), COALESCE(t.contributors, ''),
		CASE WHEN sr.kbart = '' THEN (SELECT json_group_array(json_array(subtype, value)) FROM
			(SELECT subtype, value FROM title_identifiers WHERE title_id = sr.title_id ORDER BY type, subtype, value)) ELSE '' END
		FROM snapshot_rows sr
		LEFT JOIN titles t ON t.id = sr.title_id
		LEFT JOIN packages p ON p.id = sr.package_id
		LEFT JOIN vendors v ON v.id = sr.vendor_id
		WHERE sr.customer_id = ? AND sr.seq >= ? ORDER BY sr.seq`, custID, start)
	if err != nil {
		return fmt.Errorf("holdings of %s: %w", custID, err)
	}
	defer rows.Close()
	left := count
	var h kb.Holding
	for (count <= 0 || left > 0) && rows.Next() {
		var r snapshotResource
		if err := rows.Scan(&r.seq, &r.packageID, &r.titleID, &r.kbart, &r.titleAtBuild, &r.pubType, &r.packageName, &r.vendorID,
			&r.vendorName, &r.url, &r.customCoverage, &r.statement, &r.embargoUnit, &r.embargoValue, &r.urlMask,
			&r.titleName, &r.publisher, &r.contributors, &r.identifiers); err != nil {
			return fmt.Errorf("holdings of %s: %w", custID, err)
		}
		lines, err := r.rows()
		if err != nil {
			return err
		}
		for i, line := range lines {
			if r.seq+i < offset {
				continue
			}
			if count > 0 && left == 0 {
				break
			}
			r.holding(&h, line)
			if err := fn(&h); err != nil {
				return err
			}
			left--
		}
	}
	return rows.Err()
}

// snapshotResource is one resource of a built snapshot.
type snapshotResource struct {
	seq                              int
	packageID, titleID, vendorID     int64
	kbart, titleAtBuild, titleName   string
	pubType                          int
	packageName, vendorName, url     string
	customCoverage, statement        string
	embargoUnit, embargoValue        int
	urlMask, publisher, contributors string
	identifiers                      string // JSON [[subtype,value],...] of a title without KBART rows
}

// resourceRows returns a resource's KBART rows (tab-separated fields) as
// served: its source rows, or a row built from a custom title's fields; a
// custom coverage list replaces their ranges with one row per range.
func (r *snapshotResource) rows() ([]string, error) {
	var lines []string
	if r.kbart != "" {
		lines = strings.Split(r.kbart, "\n")
	} else {
		line, err := r.titleRow()
		if err != nil {
			return nil, err
		}
		lines = []string{line}
	}
	if r.customCoverage == "" {
		return lines, nil
	}
	cs, err := decodeCoverage(r.customCoverage)
	if err != nil {
		return nil, fmt.Errorf("custom coverage of %d/%d: %w", r.packageID, r.titleID, err)
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		f := splitRow(lines[0])
		f[kbart.DateFirstIssueOnline], f[kbart.DateLastIssueOnline] = c.Begin, c.End
		f[kbart.NumFirstVolOnline], f[kbart.NumFirstIssueOnline] = "", ""
		f[kbart.NumLastVolOnline], f[kbart.NumLastIssueOnline] = "", ""
		out[i] = strings.Join(f[:], "\t")
	}
	return out, nil
}

// titleRow builds the KBART row of a title that has no source row: a
// custom title, or a title added to a custom package.
func (r *snapshotResource) titleRow() (string, error) {
	var f [kb.KBARTFieldCount]string
	f[kbart.PublicationTitle] = r.titleName
	f[kbart.TitleURL] = r.url
	f[kbart.PublisherName] = r.publisher
	f[kbart.TitleID] = strconv.FormatInt(r.titleID, 10)
	f[kbart.PublicationType] = "monograph"
	if kb.IsSerialType(kb.ResourceType(r.pubType)) {
		f[kbart.PublicationType] = "serial"
	}
	if ps, err := decodePairs(r.contributors); err == nil {
		for _, p := range ps {
			if strings.EqualFold(p[0], "author") {
				f[kbart.FirstAuthor] = p[1]
				break
			}
		}
	}
	var pairs [][2]any
	if err := json.Unmarshal([]byte(r.identifiers), &pairs); err != nil {
		return "", fmt.Errorf("identifiers of %d: %w", r.titleID, err)
	}
	for _, p := range pairs {
		sub, _ := p[0].(float64)
		v, _ := p[1].(string)
		field := kbart.PrintIdentifier
		if kb.IdentifierSubtype(sub) == kb.SubtypeOnline {
			field = kbart.OnlineIdentifier
		}
		if f[field] == "" {
			f[field] = v
		}
	}
	return strings.Join(f[:], "\t"), nil
}

func splitRow(line string) [kb.KBARTFieldCount]string {
	var f [kb.KBARTFieldCount]string
	for i := range f {
		var v string
		v, line, _ = strings.Cut(line, "\t")
		f[i] = v
	}
	return f
}

// embargoLetters are the KBART letters of the embargo units.
var embargoLetters = map[kb.EmbargoUnit]string{kb.EmbargoDays: "D", kb.EmbargoWeeks: "W", kb.EmbargoMonths: "M", kb.EmbargoYears: "Y"}

// holding fills h with one served row: the KBART fields with the frozen
// customisations applied (embargo, proxied URL, coverage statement, the
// default access type P), the current title name when the title was renamed
// since the build, and the package, vendor and resource type.
func (r *snapshotResource) holding(h *kb.Holding, line string) {
	f := splitRow(line)
	copy(h[:kb.KBARTFieldCount], f[:])
	if r.titleName != r.titleAtBuild {
		h[kbart.PublicationTitle] = r.titleName
	}
	if r.embargoValue > 0 {
		h[kbart.EmbargoInfo] = "P" + strconv.Itoa(r.embargoValue) + embargoLetters[kb.EmbargoUnit(r.embargoUnit)]
	}
	if u := h[kbart.TitleURL]; r.urlMask != "" && u != "" {
		h[kbart.TitleURL] = strings.ReplaceAll(r.urlMask, "{targetURL}", u)
	}
	if r.statement != "" {
		h[kbart.Notes] = r.statement
	}
	if h[kbart.AccessType] == "" {
		h[kbart.AccessType] = "P"
	}
	h[25] = r.packageName
	h[26] = strconv.FormatInt(r.packageID, 10)
	h[27] = r.vendorName
	h[28] = strconv.FormatInt(r.vendorID, 10)
	h[29] = kb.ResourceType(r.pubType).Display()
}
