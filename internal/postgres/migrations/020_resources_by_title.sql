-- 020: SQLite's 020 replaces resources_title with a covering index of what a
-- page of titles reads of each title's resources (coverage, embargo, URL),
-- because its resources table is clustered by package: about one file page
-- read a resource row. PostgreSQL keeps resources_title: a B-tree row must
-- stay under 2,704 bytes, and a long URL (up to 2,000 bytes) with a
-- title's coverage ranges (one a KBART row, unbounded) could exceed it and
-- fail an import. The number is kept so that both engines' migrations stay
-- in step.
SELECT 1;
