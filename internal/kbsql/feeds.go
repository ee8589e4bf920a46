package kbsql

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// The package feeds (kb.FeedStore, issue 37). A feed's schedule and its
// lease are kept as Unix milliseconds (next_run, lease_until), which both
// engines compare as numbers; the lease is taken by a conditional update
// of the feed's row, as the import lock's (internal/kbimport/lock.go), so
// that of several servers over one database one runs a due feed.

// feedColumns are the columns scanFeed reads, in its order.
const feedColumns = `id, vendor, package, url, every_seconds, headers, max_removal, customer_id, holdings,
	created, next_run, etag, last_modified, added_by`

// AddFeed implements kb.FeedStore. A feed without a schedule runs every
// kb.DefaultFeedEvery; the feed is due at once.
func (s *Store) AddFeed(ctx context.Context, f kb.Feed) (kb.Feed, error) {
	if err := checkFeed(&f); err != nil {
		return kb.Feed{}, err
	}
	headers, err := encodeFeedHeaders(f.Headers)
	if err != nil {
		return kb.Feed{}, err
	}
	f.Created = time.Now().UTC().Truncate(time.Microsecond)
	f.NextRun = f.Created.Truncate(time.Millisecond)
	f.ETag, f.LastModified = "", ""
	err = s.e.Write(ctx, "", func(tx Tx) error {
		if f.Holdings {
			ok, err := exists(ctx, tx, `SELECT 1 FROM customers WHERE id = $1`, f.CustomerID)
			if err != nil {
				return err
			}
			if !ok {
				return kb.NotFound("Customer")
			}
			type named struct {
				id              int64
				vendor, pkgName string
			}
			mine, err := QueryAll(ctx, tx, `SELECT id, vendor, package FROM feeds WHERE holdings = TRUE AND customer_id = $1`,
				[]any{f.CustomerID}, func(r Rows) (named, error) {
					var n named
					err := r.Scan(&n.id, &n.vendor, &n.pkgName)
					return n, err
				})
			if err != nil {
				return err
			}
			for _, o := range mine {
				if kb.Fold(o.vendor) == kb.Fold(f.Vendor) && kb.Fold(o.pkgName) == kb.Fold(f.Package) {
					return kb.Errorf(kb.CodeDuplicate, "customer %s has a holdings feed of %s / %s already (feed %d): two would undo each other's selections",
						f.CustomerID, f.Vendor, f.Package, o.id)
				}
			}
		}
		return tx.QueryRow(ctx, `INSERT INTO feeds(vendor, package, url, every_seconds, headers, max_removal,
			customer_id, holdings, created, next_run, added_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
			f.Vendor, f.Package, f.URL, int64(f.Every/time.Second), headers, f.MaxRemoval,
			f.CustomerID, f.Holdings, f.Created, f.NextRun.UnixMilli(), feedAddedBy(f.ByCustomer)).Scan(&f.ID)
	})
	if err != nil {
		if c := kb.ErrorCode(err); c == kb.CodeNotFound || c == kb.CodeDuplicate {
			return kb.Feed{}, err
		}
		return kb.Feed{}, fmt.Errorf("add feed of %s / %s: %w", f.Vendor, f.Package, err)
	}
	return f, nil
}

// feedAddedBy is the feeds.added_by of a feed.
func feedAddedBy(byCustomer bool) string {
	if byCustomer {
		return "customer"
	}
	return "operator"
}

// checkFeed refuses a feed the store cannot run, and gives a feed without
// a schedule the default one.
func checkFeed(f *kb.Feed) error {
	switch {
	case strings.TrimSpace(f.Vendor) == "":
		return kb.Errorf(kb.CodeMissing, "vendor: a feed names its package's vendor")
	case strings.TrimSpace(f.Package) == "":
		return kb.Errorf(kb.CodeMissing, "package: a feed names its package")
	case strings.TrimSpace(f.URL) == "":
		return kb.Errorf(kb.CodeMissing, "url: a feed names the address of its file")
	case f.Holdings && f.CustomerID == "":
		return kb.Errorf(kb.CodeMissing, "customer: a holdings feed names its customer")
	case !f.Holdings && f.CustomerID != "":
		return kb.Errorf(kb.CodeInvalid, "customer: only a holdings feed names a customer")
	case f.ByCustomer && !f.Holdings:
		return kb.Errorf(kb.CodeInvalid, "a customer adds holdings feeds only")
	case f.MaxRemoval < 0 || f.MaxRemoval > 100 || math.IsNaN(f.MaxRemoval):
		return kb.Errorf(kb.CodeInvalid, "max-removal: %v is not a percentage from 0 to 100", f.MaxRemoval)
	}
	if f.Every == 0 {
		f.Every = kb.DefaultFeedEvery
	}
	if f.Every < kb.MinFeedEvery || f.Every%time.Second != 0 {
		return kb.Errorf(kb.CodeInvalid, "every: %s is not a schedule: a whole number of seconds, at least %s", f.Every, kb.MinFeedEvery)
	}
	return nil
}

// encodeFeedHeaders writes headers as JSON [[name, value], ...].
func encodeFeedHeaders(hs []kb.FeedHeader) (string, error) {
	pairs := make([][2]string, len(hs))
	for i, h := range hs {
		pairs[i] = [2]string{h.Name, string(h.Value)}
	}
	b, err := json.Marshal(pairs)
	if err != nil {
		return "", fmt.Errorf("encode feed headers: %w", err)
	}
	return string(b), nil
}

// scanFeed reads the columns feedColumns of one row.
func scanFeed(row Row) (kb.Feed, error) {
	var f kb.Feed
	var every, next int64
	var headers string
	var created Time
	var addedBy string
	if err := row.Scan(&f.ID, &f.Vendor, &f.Package, &f.URL, &every, &headers, &f.MaxRemoval, &f.CustomerID, &f.Holdings,
		&created, &next, &f.ETag, &f.LastModified, &addedBy); err != nil {
		return kb.Feed{}, err
	}
	f.ByCustomer = addedBy == "customer"
	f.Every = time.Duration(every) * time.Second
	f.Created = created.T.UTC()
	f.NextRun = time.UnixMilli(next).UTC()
	var pairs [][2]string
	if err := json.Unmarshal([]byte(headers), &pairs); err != nil {
		return kb.Feed{}, fmt.Errorf("feed %d: headers: %w", f.ID, err)
	}
	for _, p := range pairs {
		f.Headers = append(f.Headers, kb.FeedHeader{Name: p[0], Value: kb.Secret(p[1])})
	}
	return f, nil
}

// Feeds implements kb.FeedStore.
func (s *Store) Feeds(ctx context.Context) ([]kb.Feed, error) {
	rows, err := s.e.Read().Query(ctx, `SELECT `+feedColumns+` FROM feeds ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list feeds: %w", err)
	}
	defer rows.Close()
	feeds := []kb.Feed{}
	for rows.Next() {
		f, err := scanFeed(rows)
		if err != nil {
			return nil, fmt.Errorf("list feeds: %w", err)
		}
		feeds = append(feeds, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list feeds: %w", err)
	}
	return feeds, nil
}

// FeedHistory implements kb.FeedStore: the feed and its runs, newest
// first, read in one transaction.
func (s *Store) FeedHistory(ctx context.Context, id int64) (kb.Feed, []kb.FeedRun, error) {
	var f kb.Feed
	runs := []kb.FeedRun{}
	err := s.e.ReadTx(ctx, func(q Querier) error {
		var err error
		f, err = scanFeed(q.QueryRow(ctx, `SELECT `+feedColumns+` FROM feeds WHERE id = $1`, id))
		if NoRows(err) {
			return kb.NotFound("Feed")
		}
		if err != nil {
			return err
		}
		rows, err := q.Query(ctx, `SELECT id, feed_id, started, finished, outcome, message, status, bytes,
			added, removed, changed, etag, last_modified, held IS NOT NULL
			FROM feed_runs WHERE feed_id = $1 ORDER BY id DESC`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r kb.FeedRun
			var started, finished Time
			var outcome string
			if err := rows.Scan(&r.ID, &r.FeedID, &started, &finished, &outcome, &r.Message, &r.Status, &r.Bytes,
				&r.Added, &r.Removed, &r.Changed, &r.ETag, &r.LastModified, &r.Held); err != nil {
				return err
			}
			r.Started, r.Finished, r.Outcome = started.T.UTC(), finished.T.UTC(), kb.FeedOutcome(outcome)
			runs = append(runs, r)
		}
		return rows.Err()
	})
	if err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return kb.Feed{}, nil, err
		}
		return kb.Feed{}, nil, fmt.Errorf("feed %d: %w", id, err)
	}
	return f, runs, nil
}

// RemoveFeed implements kb.FeedStore.
func (s *Store) RemoveFeed(ctx context.Context, id int64) error {
	return s.e.Write(ctx, "", func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM feed_runs WHERE feed_id = $1`, id); err != nil {
			return fmt.Errorf("remove feed %d: its runs: %w", id, err)
		}
		n, err := tx.Exec(ctx, `DELETE FROM feeds WHERE id = $1`, id)
		if err != nil {
			return fmt.Errorf("remove feed %d: %w", id, err)
		}
		if n == 0 {
			return kb.NotFound("Feed")
		}
		return nil
	})
}

// claimCandidates is how many due feeds ClaimDueFeed tries in one call
// before it answers that none is free.
const claimCandidates = 16

// ClaimDueFeed implements kb.FeedStore. It tries the feeds due longest
// first: a conditional update takes a feed's lease only while the feed is
// due and no unexpired lease covers it, so that of two servers trying the
// same feed (on PostgreSQL the second waits for the first's row lock and
// then finds the lease taken) one wins and the other tries the next.
func (s *Store) ClaimDueFeed(ctx context.Context, now time.Time, holder string, lease time.Duration, byCustomer bool) (kb.Feed, bool, error) {
	if holder == "" || lease <= 0 {
		return kb.Feed{}, false, fmt.Errorf("claim a due feed: a claim needs a holder and a lease")
	}
	at := now.UnixMilli()
	var f kb.Feed
	var ok bool
	err := s.e.Write(ctx, "", func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT id FROM feeds WHERE next_run <= $1 AND lease_until <= $1 AND added_by = $2
			ORDER BY next_run, id LIMIT `+fmt.Sprint(claimCandidates), at, feedAddedBy(byCustomer))
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			n, err := tx.Exec(ctx, `UPDATE feeds SET lease_holder = $1, lease_until = $2
				WHERE id = $3 AND next_run <= $4 AND lease_until <= $4`, holder, now.Add(lease).UnixMilli(), id, at)
			if err != nil {
				return err
			}
			if n == 1 {
				f, err = scanFeed(tx.QueryRow(ctx, `SELECT `+feedColumns+` FROM feeds WHERE id = $1`, id))
				ok = err == nil
				return err
			}
		}
		return nil
	})
	if err != nil {
		return kb.Feed{}, false, fmt.Errorf("claim a due feed for %s: %w", holder, err)
	}
	return f, ok, nil
}

// ClaimFeed implements kb.FeedStore.
func (s *Store) ClaimFeed(ctx context.Context, id int64, now time.Time, holder string, lease time.Duration) (kb.Feed, bool, error) {
	if holder == "" || lease <= 0 {
		return kb.Feed{}, false, fmt.Errorf("claim feed %d: a claim needs a holder and a lease", id)
	}
	var f kb.Feed
	var ok bool
	err := s.e.Write(ctx, "", func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE feeds SET lease_holder = $1, lease_until = $2 WHERE id = $3 AND lease_until <= $4`,
			holder, now.Add(lease).UnixMilli(), id, now.UnixMilli())
		if err != nil {
			return err
		}
		f, err = scanFeed(tx.QueryRow(ctx, `SELECT `+feedColumns+` FROM feeds WHERE id = $1`, id))
		if NoRows(err) {
			return kb.NotFound("Feed")
		}
		ok = err == nil && n == 1
		return err
	})
	if err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return kb.Feed{}, false, err
		}
		return kb.Feed{}, false, fmt.Errorf("claim feed %d for %s: %w", id, holder, err)
	}
	if !ok {
		return kb.Feed{}, false, nil
	}
	return f, true, nil
}

// RenewFeedLease implements kb.FeedStore.
func (s *Store) RenewFeedLease(ctx context.Context, id int64, now time.Time, holder string, lease time.Duration) (bool, error) {
	var n int64
	err := s.e.Write(ctx, "", func(tx Tx) error {
		var err error
		n, err = tx.Exec(ctx, `UPDATE feeds SET lease_until = $1 WHERE id = $2 AND lease_holder = $3 AND $3 <> ''`,
			now.Add(lease).UnixMilli(), id, holder)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("renew the lease of feed %d for %s: %w", id, holder, err)
	}
	return n == 1, nil
}

// RecordFeedRun implements kb.FeedStore. A run without a start time
// started now, one without an end ended when it started. The held file is
// kept only for a held run, and only for the feed's newest held run (the
// older held runs' files are dropped), gzip-compressed, in the run's row: it is read into memory
// to be written, which bounds it by the engine's largest value
// (PostgreSQL's bytea: 1 GiB, compressed). A lease that is no longer
// holder's (it expired and another server took the feed) is left to its
// holder.
func (s *Store) RecordFeedRun(ctx context.Context, holder string, run kb.FeedRun, held io.Reader) (kb.FeedRun, error) {
	if !run.Outcome.Valid() {
		return kb.FeedRun{}, fmt.Errorf("record a run of feed %d: outcome %q is not one of applied, unchanged, held, failed", run.FeedID, run.Outcome)
	}
	var blob []byte
	run.Held = false
	if held != nil && run.Outcome == kb.FeedHeld {
		var buf bytes.Buffer
		z := gzip.NewWriter(&buf)
		if _, err := io.Copy(z, held); err != nil {
			return kb.FeedRun{}, fmt.Errorf("record a run of feed %d: compress the held file: %w", run.FeedID, err)
		}
		if err := z.Close(); err != nil {
			return kb.FeedRun{}, fmt.Errorf("record a run of feed %d: compress the held file: %w", run.FeedID, err)
		}
		blob, run.Held = buf.Bytes(), true
	}
	if run.Started.IsZero() {
		run.Started = time.Now()
	}
	if run.Finished.IsZero() {
		run.Finished = run.Started
	}
	run.Started, run.Finished = run.Started.UTC().Truncate(time.Microsecond), run.Finished.UTC().Truncate(time.Microsecond)
	keep := run.Outcome == kb.FeedApplied || run.Outcome == kb.FeedUnchanged
	err := s.e.Write(ctx, "", func(tx Tx) error {
		var every int64
		if err := tx.QueryRow(ctx, `SELECT every_seconds FROM feeds WHERE id = $1`, run.FeedID).Scan(&every); err != nil {
			if NoRows(err) {
				return kb.NotFound("Feed")
			}
			return err
		}
		if blob != nil {
			// One held file a feed: the newest. An older held run can no
			// longer be approved (a newer file stands for it).
			if _, err := tx.Exec(ctx, `UPDATE feed_runs SET held = NULL WHERE feed_id = $1 AND held IS NOT NULL`, run.FeedID); err != nil {
				return err
			}
		}
		err := tx.QueryRow(ctx, `INSERT INTO feed_runs(feed_id, started, finished, outcome, message, status, bytes,
			added, removed, changed, etag, last_modified, held)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
			run.FeedID, run.Started, run.Finished, string(run.Outcome), run.Message, run.Status, run.Bytes,
			run.Added, run.Removed, run.Changed, run.ETag, run.LastModified, blob).Scan(&run.ID)
		if err != nil {
			return err
		}
		next := run.Started.Add(time.Duration(every) * time.Second).UnixMilli()
		_, err = tx.Exec(ctx, `UPDATE feeds SET next_run = $1,
			etag = CASE WHEN $2 THEN $3 ELSE etag END,
			last_modified = CASE WHEN $2 THEN $4 ELSE last_modified END,
			lease_until = CASE WHEN lease_holder = $5 THEN 0 ELSE lease_until END,
			lease_holder = CASE WHEN lease_holder = $5 THEN '' ELSE lease_holder END
			WHERE id = $6`, next, keep, run.ETag, run.LastModified, holder, run.FeedID)
		return err
	})
	if err != nil {
		if kb.ErrorCode(err) == kb.CodeNotFound {
			return kb.FeedRun{}, err
		}
		return kb.FeedRun{}, fmt.Errorf("record a run of feed %d: %w", run.FeedID, err)
	}
	return run, nil
}

// HeldFile implements kb.FeedStore: the held file, decompressed.
func (s *Store) HeldFile(ctx context.Context, runID int64) (io.ReadCloser, error) {
	var blob []byte
	err := s.e.Read().QueryRow(ctx, `SELECT held FROM feed_runs WHERE id = $1`, runID).Scan(&blob)
	if NoRows(err) || err == nil && blob == nil {
		return nil, kb.NotFound("Held file")
	}
	if err != nil {
		return nil, fmt.Errorf("held file of run %d: %w", runID, err)
	}
	z, err := gzip.NewReader(bytes.NewReader(blob))
	if err != nil {
		return nil, fmt.Errorf("held file of run %d: %w", runID, err)
	}
	return z, nil
}

// FeedPackage implements kb.FeedStore: the knowledge base's (not a
// customer's) vendor and package by folded name, as kbimport finds them.
func (s *Store) FeedPackage(ctx context.Context, vendor, pkg string) (kb.FeedPackage, bool, error) {
	var p kb.FeedPackage
	var ct, pt int
	var imported Time
	err := s.e.Read().QueryRow(ctx, `SELECT v.id, p.id, p.content_type, p.package_type, p.title_count,
			(SELECT max(i.finished) FROM imports i WHERE i.package_id = p.id AND (i.resources_added + i.resources_updated + i.resources_removed) > 0)
		FROM vendors v JOIN packages p ON p.vendor_id = v.id
		WHERE v.customer_id IS NULL AND v.sort_name = $1 AND p.sort_name = $2`,
		kb.Fold(strings.TrimSpace(vendor)), kb.Fold(strings.TrimSpace(pkg))).Scan(&p.VendorID, &p.PackageID, &ct, &pt, &p.Titles, &imported)
	p.Imported = imported.T.UTC()
	if imported.T.IsZero() {
		p.Imported = time.Time{}
	}
	if NoRows(err) {
		return kb.FeedPackage{}, false, nil
	}
	if err != nil {
		return kb.FeedPackage{}, false, fmt.Errorf("package %s / %s: %w", vendor, pkg, err)
	}
	p.ContentType, p.PackageType = kb.ContentType(ct), kb.PackageType(pt)
	return p, true, nil
}
