package kbsql

import (
	"fmt"
	"time"
)

// Time scans a stored time of either engine: a timestamptz (PostgreSQL)
// or RFC 3339 text (SQLite, which stores a time argument as RFC 3339 UTC
// text with nanoseconds); NULL is the zero time.
type Time struct{ T time.Time }

// Scan implements sql.Scanner.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		t.T = time.Time{}
		return nil
	case time.Time:
		t.T = v
		return nil
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	}
	return fmt.Errorf("scan time: unsupported value %T", src)
}

func (t *Time) parse(s string) error {
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		// Snapshot times written before the shared store: UTC, seconds.
		if v, err2 := time.Parse(time.DateTime, s); err2 == nil {
			t.T = v
			return nil
		}
		return fmt.Errorf("scan time: %w", err)
	}
	t.T = v
	return nil
}
