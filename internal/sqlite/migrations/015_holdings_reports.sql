-- 015: holdings reports (transactions and deltas), which FOLIO's
-- transaction loader reads. A transaction keeps its rows, so that later
-- imports and customer changes do not alter it; a delta keeps the rows of
-- the resources that changed between two transactions. Both are deleted,
-- rows and all, when they expire.

-- A transaction: num keys its rows; id is the opaque id clients see.
-- root_proxy is frozen at the POST with the customer's state (kept under
-- the snapshot key 'report <id>' until the rows are written). lease: while
-- a build runs, the time until which its runner holds it; a build in
-- progress whose lease has passed is resumed by the next runner to look.
CREATE TABLE report_transactions (
    num         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    created     TEXT NOT NULL,
    expires     TEXT NOT NULL,
    total       INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    root_proxy  TEXT NOT NULL,
    lease       TEXT NOT NULL
);
CREATE INDEX report_transactions_customer ON report_transactions(customer_id, created);
CREATE INDEX report_transactions_expires ON report_transactions(expires);

-- A transaction's rows in resource order (package id, title id): seq is
-- the 1-based row number. vals holds the 30 holding values and the
-- package's content type, tab-separated with \, tab and newline escaped.
CREATE TABLE report_rows (
    report_num INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    package_id INTEGER NOT NULL,
    title_id   INTEGER NOT NULL,
    vals       TEXT NOT NULL,
    PRIMARY KEY (report_num, seq)
) WITHOUT ROWID;

-- A delta between two transactions of a customer (by id: a delta goes
-- when either of them does; it expires with the earlier).
CREATE TABLE report_deltas (
    num         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    current_id  TEXT NOT NULL,
    previous_id TEXT NOT NULL,
    status      TEXT NOT NULL,
    created     TEXT NOT NULL,
    expires     TEXT NOT NULL,
    total       INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    lease       TEXT NOT NULL
);
CREATE INDEX report_deltas_expires ON report_deltas(expires);

-- A delta's rows: those of the resources that changed, with the change
-- (kb.ChangeType); vals as in report_rows.
CREATE TABLE report_delta_rows (
    delta_num   INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    change_type INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    vals        TEXT NOT NULL,
    PRIMARY KEY (delta_num, seq)
) WITHOUT ROWID;
