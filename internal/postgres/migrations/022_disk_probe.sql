-- 022: the table of the readiness check's probe while the disk is full
-- (kbsql.ProbeDisk): a row of 64 KiB written and deleted again, empty
-- otherwise. The row is stored as it is, not compressed (its bytes are
-- zeros), so that it needs new pages as a request's write does.
CREATE TABLE disk_probe (
    id  integer PRIMARY KEY,
    pad bytea NOT NULL
);
ALTER TABLE disk_probe ALTER COLUMN pad SET STORAGE EXTERNAL;
