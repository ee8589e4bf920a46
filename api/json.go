package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"gopkg.in/yaml.v3"
)

// yamlToJSON converts a YAML document to JSON, keeping the order of
// mapping keys (a conversion through Go maps would sort them). Anchors and
// aliases are expanded; merge keys and non-string keys are refused, since
// the description uses neither.
func yamlToJSON(src []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("parse YAML: %w", err)
	}
	var buf bytes.Buffer
	if err := writeNode(&buf, &doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeNode writes n as JSON to buf.
func writeNode(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return fmt.Errorf("line %d: a document must hold exactly one value", n.Line)
		}
		return writeNode(buf, n.Content[0])
	case yaml.AliasNode:
		return writeNode(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
				return fmt.Errorf("line %d: only plain scalar mapping keys are supported", k.Line)
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, k.Value); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeNode(buf, v); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeNode(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		return writeScalar(buf, n)
	}
	return fmt.Errorf("line %d: unsupported YAML node kind %d", n.Line, n.Kind)
}

// writeScalar writes a scalar by its resolved YAML tag: null, booleans and
// numbers as JSON literals, everything else as a string.
func writeScalar(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
		return nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.WriteString(strconv.FormatBool(b))
		return nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.WriteString(strconv.FormatInt(i, 10))
		return nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("line %d: %v has no JSON form", n.Line, f)
		}
		buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
		return nil
	}
	return writeString(buf, n.Value)
}

// writeString writes s as a JSON string without HTML escaping.
func writeString(buf *bytes.Buffer, s string) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	return nil
}
