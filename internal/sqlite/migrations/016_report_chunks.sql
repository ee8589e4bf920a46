-- 016: the rows of holdings reports stored a chunk at a time: one table
-- row holds reportChunk (64) report rows, so that a transaction of 1.5
-- million rows costs 23,000 inserts and page reads rather than 1.5
-- million (measured: issue 21 in BENCHMARKS.md). seq is the 1-based number
-- of the chunk's first row (chunk k starts at row k*64+1); nrows its rows
-- (64 but in the last chunk); body its rows, newline separated, each
-- "package_id, title_id, change type, then the stored values" separated by
-- tabs (kbsql/report_rows.go). Rows of 015's form are dropped: their
-- reports are marked failed (a new POST makes them again).
DROP TABLE report_rows;
DROP TABLE report_delta_rows;
CREATE TABLE report_rows (
    report_num INTEGER NOT NULL,
    seq        INTEGER NOT NULL,
    nrows      INTEGER NOT NULL,
    body       TEXT NOT NULL,
    PRIMARY KEY (report_num, seq)
) WITHOUT ROWID;
CREATE TABLE report_delta_rows (
    delta_num INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    nrows     INTEGER NOT NULL,
    body      TEXT NOT NULL,
    PRIMARY KEY (delta_num, seq)
) WITHOUT ROWID;
UPDATE report_transactions SET status = 'Failed', error = 'rows dropped by migration 016' WHERE status <> 'Failed';
UPDATE report_deltas SET status = 'FAILED', error = 'rows dropped by migration 016' WHERE status <> 'FAILED';
