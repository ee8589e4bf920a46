-- 025: package feeds (issue 37): a package's file fetched from its
-- publisher's address on a schedule, or a customer's holdings file, and
-- each run's outcome. Times to compare (next_run, lease_until) are Unix
-- milliseconds, so that both engines compare them as numbers; times to
-- show are the engine's time values.

-- A feed. headers: JSON [[name, value], ...], the values secrets that
-- are never shown. max_removal: percent of the package's titles a run
-- may remove without review. etag, last_modified: those of the last file
-- applied or found unchanged, for the next conditional request. The
-- lease: a server that runs the feed holds it (lease_holder) until
-- lease_until; a lease that has expired (its process died) may be taken
-- over, as the import lock's.
CREATE TABLE feeds (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    vendor        TEXT NOT NULL,
    package       TEXT NOT NULL,
    url           TEXT NOT NULL,
    every_seconds INTEGER NOT NULL,
    headers       TEXT NOT NULL,
    max_removal   REAL NOT NULL,
    customer_id   TEXT NOT NULL,
    holdings      INTEGER NOT NULL,
    created       TEXT NOT NULL,
    next_run      INTEGER NOT NULL,
    etag          TEXT NOT NULL DEFAULT '',
    last_modified TEXT NOT NULL DEFAULT '',
    lease_holder  TEXT NOT NULL DEFAULT '',
    lease_until   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX feeds_due ON feeds(next_run);

-- A feed's runs. held: the file of a held run, gzip-compressed, kept in
-- the database so that every server over it can apply it on approval
-- (NULL when none).
CREATE TABLE feed_runs (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    feed_id       INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
    started       TEXT NOT NULL,
    finished      TEXT NOT NULL,
    outcome       TEXT NOT NULL,
    message       TEXT NOT NULL,
    status        INTEGER NOT NULL,
    bytes         INTEGER NOT NULL,
    added         INTEGER NOT NULL,
    removed       INTEGER NOT NULL,
    changed       INTEGER NOT NULL,
    etag          TEXT NOT NULL,
    last_modified TEXT NOT NULL,
    held          BLOB
);
CREATE INDEX feed_runs_feed ON feed_runs(feed_id, id);
