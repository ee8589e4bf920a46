-- 012: what a running server needs beyond the APIs (issue 10).

-- An API key belongs to one environment: a server of the other refuses it.
-- Keys made before environments existed are production keys.
ALTER TABLE api_keys ADD COLUMN environment TEXT NOT NULL DEFAULT 'production'
    CHECK (environment IN ('sandbox', 'production'));

-- One row per committed package import, written in the import's own
-- transaction (a failed import records nothing), for the import metrics.
-- It is a log: no foreign keys, so that it outlives what it names. It grows
-- by one row an import, without bound; the metrics read import_totals.
-- finished is UTC with milliseconds ("2006-01-02T15:04:05.000Z"): fixed
-- width, so text order is time order.
CREATE TABLE imports (
    id                INTEGER PRIMARY KEY,
    finished          TEXT NOT NULL,
    vendor_id         INTEGER NOT NULL,
    package_id        INTEGER NOT NULL,
    rows              INTEGER NOT NULL,
    titles_created    INTEGER NOT NULL,
    titles_matched    INTEGER NOT NULL,
    resources_added   INTEGER NOT NULL,
    resources_updated INTEGER NOT NULL,
    resources_removed INTEGER NOT NULL
);

-- The imports' running totals, one row updated in each import's
-- transaction, so that a metrics scrape reads one row however long the
-- imports log grows.
CREATE TABLE import_totals (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    imports  INTEGER NOT NULL,
    rows     INTEGER NOT NULL,
    finished TEXT NOT NULL
);
