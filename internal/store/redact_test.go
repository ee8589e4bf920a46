package store

import "testing"

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"kb.db", "kb.db"},
		{"postgres://kb@db.example/kb", "postgres://kb@db.example/kb"},
		{"postgres://kb:s3cret@db.example:5432/kb?sslmode=require", "postgres://kb:xxxxx@db.example:5432/kb?sslmode=require"},
		{"postgresql://db.example/kb?password=s3cret&user=kb", "postgresql://db.example/kb?password=xxxxx&user=kb"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
