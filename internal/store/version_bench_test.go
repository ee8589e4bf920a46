package store_test

import (
	"context"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// BenchmarkRequestReads measures the store reads of a GET title answered
// from the holdings service's cache of answers: the API-key lookup, which
// reads the customer's version in the same statement ("key+version"), and,
// for comparison, the version read as a statement of its own ("version
// alone": what a request would pay on top of the key without it).
//
//	go test -run '^$' -bench RequestReads ./internal/store
//	KBSERVER_TEST_STORE=postgres KBSERVER_TEST_POSTGRES=postgres://… go test -run '^$' -bench RequestReads ./internal/store
func BenchmarkRequestReads(b *testing.B) {
	ctx := context.Background()
	s := storetest.Searched(b.Context(), testdb.Open(b))
	storetest.LoadFixture(b, s)
	h := kb.HashAPIKey("key-c1")
	b.Run("key+version", func(b *testing.B) {
		for range b.N {
			k, err := s.LookupAPIKey(ctx, h)
			if err != nil || k.At.Root == "" {
				b.Fatalf("key %+v, %v", k, err)
			}
		}
	})
	b.Run("version alone", func(b *testing.B) {
		for range b.N {
			if _, err := s.CollectionVersion(ctx, "c1"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
