package sqlite

import "github.com/kbserver/kbserver/internal/kbsql"

// fold and words are the shared forms of kbsql (fold.go there).
func fold(s string) string    { return kbsql.Fold(s) }
func words(s string) []string { return kbsql.Words(s) }
