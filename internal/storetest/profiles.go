package storetest

import (
	"context"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// testProfiles: profiles are saved for existing customers only, found by
// their three parts, and saving again changes password and guest access.
func testProfiles(t *testing.T, s Store) {
	ctx := context.Background()
	id := kb.ProfileID{CustomerID: "p1", GroupID: "main", ProfileID: "az"}
	if err := s.SaveProfile(ctx, kb.Profile{ID: id, Guest: true}); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Fatalf("profile of a missing customer: %v, want CodeNotFound", err)
	}
	if _, err := s.AddCustomer(ctx, "p1", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LookupProfile(ctx, id); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Fatalf("missing profile: %v, want CodeNotFound", err)
	}
	if err := s.SaveProfile(ctx, kb.Profile{ID: id, PasswordHash: "h1", Guest: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveProfile(ctx, kb.Profile{ID: id, PasswordHash: "h2"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.LookupProfile(ctx, id)
	if err != nil || got != (kb.Profile{ID: id, PasswordHash: "h2"}) {
		t.Errorf("profile after a second save = %+v, %v", got, err)
	}
	other := kb.ProfileID{CustomerID: "p1", GroupID: "main", ProfileID: "other"}
	if _, err := s.LookupProfile(ctx, other); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("another profile id: %v, want CodeNotFound", err)
	}
	if _, err := s.AddCustomer(ctx, "p0", ""); err != nil {
		t.Fatal(err)
	}
	first := kb.ProfileID{CustomerID: "p0", GroupID: "main", ProfileID: "z"}
	if err := s.SaveProfile(ctx, kb.Profile{ID: first, Guest: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveProfile(ctx, kb.Profile{ID: other, PasswordHash: "h3"}); err != nil {
		t.Fatal(err)
	}
	want := []kb.Profile{{ID: id, PasswordHash: "h2"}, {ID: other, PasswordHash: "h3"}}
	if got, err := s.Profiles(ctx, "p1"); err != nil || !slices.Equal(got, want) {
		t.Errorf("Profiles(p1) = %+v, %v; want %+v", got, err, want)
	}
	want = append([]kb.Profile{{ID: first, Guest: true}}, want...)
	if got, err := s.Profiles(ctx, ""); err != nil || !slices.Equal(got, want) {
		t.Errorf("Profiles() = %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.Profiles(ctx, "nobody"); err != nil || len(got) != 0 {
		t.Errorf("Profiles(nobody) = %+v, %v; want none", got, err)
	}
	// The interlibrary-loan form: set, kept by a save of the password,
	// removed; refused when it is not an address; an unknown profile is
	// not found.
	const form = "https://ill.example.edu/request?lib=1"
	if err := s.SetProfileRequestURL(ctx, id, form); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveProfile(ctx, kb.Profile{ID: id, PasswordHash: "h4"}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.LookupProfile(ctx, id); err != nil || got.RequestURL != form || got.PasswordHash != "h4" {
		t.Errorf("profile with a request form after a save = %+v, %v", got, err)
	}
	if err := s.SetProfileRequestURL(ctx, id, "ill.example.edu/request"); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("a request form without scheme: %v, want CodeInvalid", err)
	}
	nobody := kb.ProfileID{CustomerID: "p1", GroupID: "main", ProfileID: "nobody"}
	if err := s.SetProfileRequestURL(ctx, nobody, form); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("the request form of an unknown profile: %v, want CodeNotFound", err)
	}
	if err := s.SetProfileRequestURL(ctx, id, ""); err != nil {
		t.Fatal(err)
	}
	if got, err := s.LookupProfile(ctx, id); err != nil || got.RequestURL != "" {
		t.Errorf("profile after removing its request form = %+v, %v", got, err)
	}
}
