package kbsnapshot

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// SnapshotResource is one resource of a holdings snapshot as a page serves
// it: the resource's KBART rows and title fields read live, its package and
// vendor, and the customisation frozen at the snapshot's POST. Both stores
// fill one from their rows and turn it into holding rows the same way.
type SnapshotResource struct {
	PackageID, TitleID, VendorID     int64
	KBART, TitleName                 string // KBART: the source rows, newline separated ("" for none)
	PubType                          int
	PackageName, VendorName, URL     string
	CustomCoverage, Statement        string // CustomCoverage: JSON [[begin,end],...], "" for none
	EmbargoUnit, EmbargoValue        int
	URLMask, Publisher, Contributors string   // Contributors: JSON [[type,name],...]
	Identifiers                      string   // JSON [[subtype,value],...] of a title without KBART rows
	ExtraColumns                     []string // the package's non-standard KBART columns, whose values follow a row's 25 fields
}

// Rows returns the resource's KBART rows (tab-separated fields) as served:
// its source rows, or a row built from a custom title's fields; a custom
// coverage list replaces their ranges with one row per range.
func (r *SnapshotResource) Rows() ([]string, error) {
	var lines []string
	if r.KBART != "" {
		lines = strings.Split(r.KBART, "\n")
	} else {
		line, err := r.titleRow()
		if err != nil {
			return nil, err
		}
		lines = []string{line}
	}
	if r.CustomCoverage == "" {
		return lines, nil
	}
	cs, err := kbsql.DecodeCoverage(r.CustomCoverage)
	if err != nil {
		return nil, fmt.Errorf("custom coverage of %d/%d: %w", r.PackageID, r.TitleID, err)
	}
	return kbart.RowsWithCoverage(lines[0], cs), nil
}

// titleRow builds the KBART row of a title that has no source row: a
// custom title, or a title added to a custom package.
func (r *SnapshotResource) titleRow() (string, error) {
	var f [kb.KBARTFieldCount]string
	f[kbart.PublicationTitle] = r.TitleName
	f[kbart.TitleURL] = r.URL
	f[kbart.PublisherName] = r.Publisher
	f[kbart.TitleID] = strconv.FormatInt(r.TitleID, 10)
	f[kbart.PublicationType] = "monograph"
	if kb.IsSerialType(kb.ResourceType(r.PubType)) {
		f[kbart.PublicationType] = "serial"
	}
	if ps, err := kbsql.DecodePairs(r.Contributors); err == nil {
		for _, p := range ps {
			if strings.EqualFold(p[0], "author") {
				f[kbart.FirstAuthor] = p[1]
				break
			}
		}
	}
	var pairs [][2]any
	if err := json.Unmarshal([]byte(r.Identifiers), &pairs); err != nil {
		return "", fmt.Errorf("identifiers of %d: %w", r.TitleID, err)
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

// splitRow splits a KBART row into its fields; missing ones are empty.
func splitRow(line string) [kb.KBARTFieldCount]string {
	var f [kb.KBARTFieldCount]string
	for i := range f {
		var v string
		v, line, _ = strings.Cut(line, "\t")
		f[i] = v
	}
	return f
}

// Holding fills h with one served row (one of Rows): the KBART fields with
// the frozen customisations applied (embargo, proxied URL, coverage
// statement, the default access type P), the package, vendor and resource
// type, and the row's values of the package's non-standard columns.
func (r *SnapshotResource) Holding(h *kb.Holding, line string) {
	f := splitRow(line)
	v := &h.Values
	copy(v[:kb.KBARTFieldCount], f[:])
	if r.EmbargoValue > 0 {
		v[kbart.EmbargoInfo] = kb.Embargo{Unit: kb.EmbargoUnit(r.EmbargoUnit), Value: r.EmbargoValue}.KBART()
	}
	if u := v[kbart.TitleURL]; r.URLMask != "" && u != "" {
		v[kbart.TitleURL] = strings.ReplaceAll(r.URLMask, "{targetURL}", u)
	}
	if r.Statement != "" {
		v[kbart.Notes] = r.Statement
	}
	if v[kbart.AccessType] == "" {
		v[kbart.AccessType] = "P"
	}
	v[25] = r.PackageName
	v[26] = strconv.FormatInt(r.PackageID, 10)
	v[27] = r.VendorName
	v[28] = strconv.FormatInt(r.VendorID, 10)
	v[29] = kb.ResourceType(r.PubType).Display()
	h.TitleID = r.TitleID
	h.Extra = h.Extra[:0]
	if len(r.ExtraColumns) == 0 {
		return
	}
	_, tail := cutFields(line)
	for i := 0; tail != "" && i < len(r.ExtraColumns); i++ {
		var val string
		val, tail, _ = strings.Cut(tail[1:], "\t")
		if tail != "" {
			tail = "\t" + tail
		}
		if val != "" {
			h.Extra = append(h.Extra, kb.ExtraValue{Column: r.ExtraColumns[i], Value: val})
		}
	}
}

// cutFields cuts a stored row after its 25 standard fields: tail is the
// rest, starting with its tab ("" when the row has no more).
func cutFields(line string) (fields, tail string) {
	i := 0
	for n := 0; n < kb.KBARTFieldCount; n++ {
		j := strings.IndexByte(line[i:], '\t')
		if j < 0 {
			return line, ""
		}
		if n == kb.KBARTFieldCount-1 {
			return line[:i+j], line[i+j:]
		}
		i += j + 1
	}
	return line, ""
}
