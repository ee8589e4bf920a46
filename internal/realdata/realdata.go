// Package realdata locates the corpus of real publisher KBART files that
// tests read from ../shared/data/kbart/real beside the repository. The files
// are never committed to this repository.
package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// rel is the corpus' path relative to the directory that holds the repository.
const rel = "shared/data/kbart/real"

// Dir returns the corpus directory. When it is absent the test is skipped
// with a message, except under CI (CI=true), where it fails.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d, ok := find(); ok {
		return d
	}
	msg := "real KBART corpus not found: expected " + rel + " in a parent directory of the repository (see README, Tests)"
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg)
	}
	tb.Skip(msg)
	return ""
}

func find() (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, rel)
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			return c, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// Files returns every file of the corpus, as paths relative to Dir.
func Files(tb testing.TB) []string {
	tb.Helper()
	dir := Dir(tb)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			r, _ := filepath.Rel(dir, p)
			files = append(files, r)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}
