package sqlite

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// codeError is an error with an SQLite result code, as the driver's.
type codeError int

func (e codeError) Error() string { return fmt.Sprintf("sqlite error %d", int(e)) }
func (e codeError) Code() int     { return int(e) }

func TestBusy(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want kb.Code
	}{
		{fmt.Errorf("begin: %w", codeError(5)), kb.CodeUnavailable},    // SQLITE_BUSY
		{fmt.Errorf("commit: %w", codeError(517)), kb.CodeUnavailable}, // SQLITE_BUSY_SNAPSHOT
		{codeError(6), kb.CodeUnavailable},                             // SQLITE_LOCKED
		{codeError(19), kb.CodeInternal},                               // SQLITE_CONSTRAINT
		{errors.New("other"), kb.CodeInternal},
		{kb.Errorf(kb.CodeInvalid, "bad"), kb.CodeInvalid},
	} {
		if got := kb.ErrorCode(busy(tc.err)); got != tc.want {
			t.Errorf("busy(%v) code %d, want %d", tc.err, got, tc.want)
		}
	}
}
