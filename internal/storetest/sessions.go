package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// testSessions: a console session is found by its token hash until it
// expires, is signed out, or its API key is revoked; it carries its key's
// environment.
func testSessions(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.AddCustomer(ctx, "s1", ""); err != nil {
		t.Fatal(err)
	}
	hash := kb.HashAPIKey("s1-key")
	if err := s.AddAPIKey(ctx, "s1", hash, kb.Sandbox); err != nil {
		t.Fatal(err)
	}
	key, err := s.LookupAPIKey(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Second)
	expires := now.Add(time.Hour)
	for _, sess := range []kb.Session{
		{TokenHash: "a", KeyID: key.ID, CustomerID: "s1", Expires: expires},
		{TokenHash: "b", KeyID: key.ID, CustomerID: "s1", Expires: expires},
		{TokenHash: "c", KeyID: key.ID + 1000, CustomerID: "s1", Expires: expires}, // no such key
	} {
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LookupSession(ctx, "a", now)
	want := kb.Session{TokenHash: "a", KeyID: key.ID, CustomerID: "s1", Environment: kb.Sandbox, Expires: expires}
	if err != nil || got.TokenHash != want.TokenHash || got.KeyID != want.KeyID || got.CustomerID != want.CustomerID ||
		got.Environment != want.Environment || !got.Expires.Equal(want.Expires) {
		t.Errorf("LookupSession(a) = %+v, %v; want %+v", got, err, want)
	}
	notFound := func(what, token string, at time.Time) {
		t.Helper()
		if _, err := s.LookupSession(ctx, token, at); kb.ErrorCode(err) != kb.CodeNotFound {
			t.Errorf("%s: %v, want CodeNotFound", what, err)
		}
	}
	notFound("expired", "a", expires)
	notFound("unknown token", "zzz", now)
	notFound("a session of a key that does not exist", "c", now)
	if err := s.DeleteSession(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	notFound("signed out", "a", now)
	if err := s.DeleteSession(ctx, "a"); err != nil {
		t.Errorf("signing out twice: %v", err)
	}
	if _, err := s.LookupSession(ctx, "b", now); err != nil {
		t.Errorf("another session of the key after one signed out: %v", err)
	}
	if err := s.RevokeAPIKey(ctx, hash); err != nil {
		t.Fatal(err)
	}
	notFound("the key revoked", "b", now)
	// A new key (SQLite may give it the revoked key's id) does not bring
	// the revoked key's sessions back.
	if err := s.AddAPIKey(ctx, "s1", kb.HashAPIKey("s1-key-2"), kb.Sandbox); err != nil {
		t.Fatal(err)
	}
	notFound("the key revoked, then another added", "b", now)
}

// testListCustomersAndKeys: customers are listed by id; a customer's keys
// by age, with their environments and creation times, never the keys.
func testListCustomersAndKeys(t *testing.T, s Store) {
	ctx := context.Background()
	for _, id := range []string{"lk-b", "lk-a"} {
		if _, err := s.AddCustomer(ctx, id, "Name "+id); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		if c.ID == "lk-a" || c.ID == "lk-b" {
			ids = append(ids, c.ID+"/"+c.Name)
		}
	}
	if len(ids) != 2 || ids[0] != "lk-a/Name lk-a" || ids[1] != "lk-b/Name lk-b" {
		t.Errorf("Customers() holds %v, want lk-a then lk-b with their names", ids)
	}
	before := time.Now().Add(-time.Minute)
	for _, env := range []kb.Environment{kb.Production, kb.Sandbox} {
		if err := s.AddAPIKey(ctx, "lk-a", kb.HashAPIKey("lk-a-"+string(env)), env); err != nil {
			t.Fatal(err)
		}
	}
	keys, err := s.APIKeys(ctx, "lk-a")
	if err != nil || len(keys) != 2 || keys[0].Environment != kb.Production || keys[1].Environment != kb.Sandbox ||
		keys[0].ID >= keys[1].ID || keys[0].Created.Before(before) || keys[0].Created.After(time.Now().Add(time.Minute)) {
		t.Errorf("APIKeys(lk-a) = %+v, %v; want the production key then the sandbox key, created now", keys, err)
	}
	if keys, err := s.APIKeys(ctx, "lk-b"); err != nil || len(keys) != 0 {
		t.Errorf("APIKeys(lk-b) = %+v, %v; want none", keys, err)
	}
	if _, err := s.APIKeys(ctx, "lk-none"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("APIKeys of a missing customer: %v, want CodeNotFound", err)
	}
}
