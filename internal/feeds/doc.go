// Package feeds runs the package feeds of issue 37: Run fetches a feed's
// file (internal/feedfetch), checks it before anything is applied
// (kb.FeedChecks, over a dry run of the import) and applies it through the
// same import as `import kbart` (kbart.Source into kb.Importer), or holds
// it for review; Approve applies exactly the file a held run kept. Every
// run is recorded in the feed's history (kb.FeedStore.RecordFeedRun), which
// also releases the feed's lease.
//
// The caller claims the feed first (kb.FeedStore.ClaimDueFeed, ClaimFeed)
// and passes its holder; the command line and the server's loop that do so
// are not in this package.
package feeds
