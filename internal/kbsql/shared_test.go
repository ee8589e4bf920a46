package kbsql

import (
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestPickKey(t *testing.T) {
	var h kb.KeyHash
	h[0] = 1
	other := h
	other[31] = 9
	cands := []KeyCandidate{{1, "a", "production", other[:], kb.CustomerAt{Root: "p", KB: 4, Titles: 3, Customer: 5}},
		{2, "b", "sandbox", h[:], kb.CustomerAt{Root: "q", KB: 4, Titles: 3, Customer: 7}}}
	k, err := PickKey(cands, h)
	if err != nil || k != (kb.APIKey{ID: 2, CustomerID: "b", Environment: kb.Sandbox, At: kb.CustomerAt{Root: "q", KB: 4, Titles: 3, Customer: 7}}) {
		t.Errorf("PickKey = %+v, %v", k, err)
	}
	if v := k.At.CollectionVersion(); v != "4.7" {
		t.Errorf("PickKey's CollectionVersion = %q, want 4.7", v)
	}
	if _, err := PickKey(cands[:1], h); kb.ErrorCode(err) != kb.CodeUnauthenticated {
		t.Errorf("PickKey without a match: %v", err)
	}
}

func TestERMBodyEscapes(t *testing.T) {
	if _, err := ERMBody("contact 1", []byte(`{"name":"\ud800"}`)); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("ERMBody with a lone surrogate: %v, want CodeInvalid", err)
	}
	if _, err := ERMBody("contact 1", []byte(`{"name":"\ud83d\ude00"}`)); err != nil {
		t.Errorf("ERMBody with a surrogate pair: %v", err)
	}
}
