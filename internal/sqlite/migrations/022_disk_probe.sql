-- 022: the table of the readiness check's probe while the disk is full
-- (kbsql.ProbeDisk): a row of 64 KiB written and deleted again, empty
-- otherwise.
CREATE TABLE disk_probe (
    id  INTEGER PRIMARY KEY,
    pad BLOB NOT NULL
);
