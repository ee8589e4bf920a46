package kbsql

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// The text encodings of the customer's holdings state, and the JSON of the
// states a change records.

// CustomCoverageJSON returns a resource's custom coverage as stored in
// customer_resources.custom_coverage: JSON [[begin,end],...], newest
// first; "" for none.
func CustomCoverageJSON(cs []kb.Coverage) string {
	if len(cs) == 0 {
		return ""
	}
	pairs := make([][2]string, len(cs))
	for i, c := range cs {
		pairs[i] = [2]string{c.Begin, c.End}
	}
	b, _ := json.Marshal(pairs)
	return string(b)
}

// UserDefinedJSON returns a resource's five user-defined fields as stored
// in customer_resources.udf: a JSON array of five strings; "" when all are
// empty.
func UserDefinedJSON(udf [5]string) string {
	if udf == [5]string{} {
		return ""
	}
	b, _ := json.Marshal(udf)
	return string(b)
}

// StoredLabel is the JSON form of a label in customers.labels.
type StoredLabel struct {
	ID   int    `json:"id"`
	Text string `json:"label"`
	FTF  bool   `json:"ftf"`
	PF   bool   `json:"pf"`
}

// EncodeLabels returns the customer's labels as stored in
// customers.labels: the JSON of the labels that say something (text or a
// display flag), "" when none does.
func EncodeLabels(labels [5]kb.Label) string {
	var ls []StoredLabel
	for _, l := range labels {
		if l.ID >= 1 && l.ID <= 5 && (l.DisplayLabel != "" || l.DisplayOnFullTextFinder || l.DisplayOnPublicationFinder) {
			ls = append(ls, StoredLabel{ID: l.ID, Text: l.DisplayLabel, FTF: l.DisplayOnFullTextFinder, PF: l.DisplayOnPublicationFinder})
		}
	}
	if len(ls) == 0 {
		return ""
	}
	b, _ := json.Marshal(ls)
	return string(b)
}

// DecodeLabels returns the five labels of customers.labels (EncodeLabels'
// form), each with its id, the unset ones empty.
func DecodeLabels(s string) ([5]kb.Label, error) {
	var labels [5]kb.Label
	for i := range labels {
		labels[i].ID = i + 1
	}
	if s == "" {
		return labels, nil
	}
	var ls []StoredLabel
	if err := json.Unmarshal([]byte(s), &ls); err != nil {
		return labels, err
	}
	for _, l := range ls {
		if l.ID >= 1 && l.ID <= 5 {
			labels[l.ID-1] = kb.Label{ID: l.ID, DisplayLabel: l.Text, DisplayOnFullTextFinder: l.FTF, DisplayOnPublicationFinder: l.PF}
		}
	}
	return labels, nil
}

// IdentifierNorm returns the matching form of a title identifier as
// title_identifiers.norm keeps it, and whether the identifier is a valid
// ISSN or ISBN: a valid ISSN as 1234-567X, a valid ISBN as its 13 digits,
// anything else as a search normalises it.
func IdentifierNorm(i kb.Identifier) (norm string, valid bool) {
	switch i.Type {
	case kb.IdentISSN:
		if n, ok := kb.NormalizeISSN(i.ID); ok {
			return n, true
		}
	case kb.IdentISBN:
		if n, ok := kb.NormalizeISBN(i.ID); ok {
			return n, true
		}
	}
	return kb.NormalizeISXNQuery(i.ID), false
}

// JSONObject returns the JSON object of the key and value pairs kv (key
// string, value, key, value…) in their order, written as SQLite's
// json_object writes it, so that both stores record a change's states
// alike: no spaces; a nil value (or nil *string) as null; a bool as 1 or
// 0 (SQLite has no booleans); json.RawMessage as is; []any as an array.
func JSONObject(kv ...any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := kv[i].(string)
		appendJSONString(&b, key)
		b.WriteByte(':')
		appendJSONValue(&b, kv[i+1])
	}
	b.WriteByte('}')
	return b.String()
}

func appendJSONValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		appendJSONString(b, v)
	case *string:
		if v == nil {
			b.WriteString("null")
		} else {
			appendJSONString(b, *v)
		}
	case bool:
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	case *bool:
		if v == nil {
			b.WriteString("null")
		} else {
			appendJSONValue(b, *v)
		}
	case int:
		b.WriteString(strconv.Itoa(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case json.RawMessage:
		b.Write(v)
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			appendJSONValue(b, x)
		}
		b.WriteByte(']')
	default:
		j, _ := json.Marshal(v)
		b.Write(j)
	}
}

// appendJSONString writes s quoted as SQLite's json_object quotes text:
// only the quote, the backslash and control characters are escaped (\b,
// \t, \n, \f, \r or \u00xx).
func appendJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20:
			b.WriteByte(c)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\r':
			b.WriteString(`\r`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
	}
	b.WriteByte('"')
}

// PairsJSON encodes xs as the JSON [[a,b],...] of the subjects and
// contributors columns; "" when xs is empty.
func PairsJSON[T any](xs []T, pair func(T) [2]string) string {
	if len(xs) == 0 {
		return ""
	}
	ps := make([][2]string, len(xs))
	for i, x := range xs {
		ps[i] = pair(x)
	}
	b, _ := json.Marshal(ps)
	return string(b)
}
