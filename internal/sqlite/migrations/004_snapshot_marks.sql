-- 004: holdings snapshots as segments and offset marks instead of a copied
-- row per holding, so that a build costs the number of the customer's
-- packages and customisations, not of its holdings.

-- A managed package's KBART row count and a mark every 256th resource (in
-- title id order): the row offset, from 0, at which the resource's rows
-- start. An import recomputes them; marks_ok = 0 asks the next snapshot
-- build to (databases migrated from 003 start so).
-- A resource carries its title's type (which a snapshot row shows) so that
-- reading a package's holdings is one ordered scan of its resources.
ALTER TABLE resources ADD COLUMN pub_type INTEGER NOT NULL DEFAULT 0;
UPDATE resources SET pub_type = (SELECT pub_type FROM titles WHERE id = resources.title_id);
CREATE INDEX packages_customer ON packages(customer_id) WHERE customer_id IS NOT NULL;

ALTER TABLE packages ADD COLUMN kbart_rows INTEGER NOT NULL DEFAULT 0;
ALTER TABLE packages ADD COLUMN marks_ok INTEGER NOT NULL DEFAULT 0;
CREATE TABLE package_marks (
    package_id INTEGER NOT NULL,
    row_offset INTEGER NOT NULL,
    title_id   INTEGER NOT NULL,
    PRIMARY KEY (package_id, row_offset)
) WITHOUT ROWID;

-- A customer's custom packages as they were at the POST: the customer
-- changes them (a title removed is a deselection), so they are frozen with
-- the rest of its state. The title fields are a fallback for a custom title
-- deleted since; a title that still exists is read live.
CREATE TABLE snapshot_custom_resources (
    customer_id  TEXT NOT NULL,
    package_id   INTEGER NOT NULL,
    title_id     INTEGER NOT NULL,
    url          TEXT NOT NULL,
    name         TEXT NOT NULL,
    pub_type     INTEGER NOT NULL,
    publisher    TEXT NOT NULL,
    contributors TEXT NOT NULL,
    identifiers  TEXT NOT NULL, -- JSON [[subtype,value],...]
    PRIMARY KEY (customer_id, package_id, title_id)
) WITHOUT ROWID;

-- A built snapshot: one segment per package that has holdings, in package
-- id order, with the 1-based row at which it starts and its row count.
-- kind: 0 a managed package selected as a whole (less its title-level
-- exclusions), 1 titles selected one by one in a managed package, 2 a
-- custom package. url_mask is the package's effective proxy (package,
-- vendor, root); names are a fallback for a package deleted since.
-- customised: the customer has title-level state in the package (else its
-- rows are read without looking for any).
DROP TABLE snapshot_rows;
CREATE TABLE snapshot_segments (
    customer_id  TEXT NOT NULL,
    package_id   INTEGER NOT NULL,
    kind         INTEGER NOT NULL,
    seq          INTEGER NOT NULL,
    nrows        INTEGER NOT NULL,
    package_name TEXT NOT NULL,
    vendor_id    INTEGER NOT NULL,
    vendor_name  TEXT NOT NULL,
    url_mask     TEXT NOT NULL,
    customised   INTEGER NOT NULL,
    PRIMARY KEY (customer_id, package_id)
) WITHOUT ROWID;
-- Marks into a built snapshot: the resource (package, title) whose rows
-- start at row seq; every segment's first resource and every 256th after.
-- A page starts at the mark at or before its offset.
CREATE TABLE snapshot_marks (
    customer_id TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    PRIMARY KEY (customer_id, seq)
) WITHOUT ROWID;

-- Snapshots built as rows are built again, from their frozen state, when a
-- server next starts (ResumeSnapshots). The custom packages were not
-- frozen by 003: they are taken as they are now.
INSERT INTO snapshot_custom_resources(customer_id, package_id, title_id, url, name, pub_type, publisher, contributors, identifiers)
SELECT p.customer_id, r.package_id, r.title_id, r.url, t.name, t.pub_type, t.publisher, t.contributors, '[]'
FROM snapshots s JOIN packages p ON p.customer_id = s.customer_id
JOIN resources r ON r.package_id = p.id JOIN titles t ON t.id = r.title_id;
UPDATE snapshots SET status = 'In Progress', total = 0 WHERE status = 'Completed';
