package postgres_test

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestUnstorableText checks that text PostgreSQL cannot store (a NUL
// character, invalid UTF-8) given to a write is a client mistake
// (CodeInvalid) that writes nothing, not an internal error.
func TestUnstorableText(t *testing.T) {
	st := open(t)
	ctx := t.Context()
	for _, name := range []string{"a\x00b", "a\xffb"} {
		_, err := st.AddCustomer(ctx, "c1", name)
		if kb.ErrorCode(err) != kb.CodeInvalid {
			t.Errorf("AddCustomer(name %q) = %v, want CodeInvalid", name, err)
		}
	}
	if _, err := st.Customer(ctx, "c1"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("Customer after the refused adds: %v, want CodeNotFound", err)
	}
}
