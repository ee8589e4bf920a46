package postgres

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestDiskFullCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		full bool
	}{
		{fmt.Errorf("commit: %w", &pgconn.PgError{Code: "53100", Message: `could not extend file "base/1/2": No space left on device`}), true},
		{&pgconn.PgError{Code: "53200"}, false}, // out_of_memory: one statement's, not the store's
		{&pgconn.PgError{Code: "23505"}, false},
		{errors.New("other"), false},
		{kb.Errorf(kb.CodeInvalid, "bad"), false},
	} {
		got := diskFull(tc.err)
		if full := errors.Is(got, kb.ErrDiskFull); full != tc.full {
			t.Errorf("diskFull(%v) = %v: full %v, want %v", tc.err, got, full, tc.full)
		}
		if tc.full && (kb.ErrorCode(got) != kb.CodeUnavailable || kb.ErrorMessage(got) != kb.DiskFullMessage) {
			t.Errorf("diskFull(%v): code %d, message %q", tc.err, kb.ErrorCode(got), kb.ErrorMessage(got))
		}
		if !tc.full && got != tc.err {
			t.Errorf("diskFull(%v) = %v, want it unchanged", tc.err, got)
		}
	}
}
