-- 014: knowledge-base updates that keep customers' work (issue 20).

-- The provider's KBART title_id of a resource's rows: the first thing an
-- import matches a row by. Rows imported before this migration get theirs
-- from their stored KBART at their package's next import.
ALTER TABLE resources ADD COLUMN provider_id TEXT NOT NULL DEFAULT '';
CREATE INDEX resources_provider ON resources(package_id, provider_id) WHERE provider_id <> '';

-- The package whose imports own a managed title's name, publisher, type and
-- identifiers: the one that created it, else (for titles older than this
-- migration) the managed package of lowest id that lists it. NULL when no
-- package owns it; the next package to import it takes it.
ALTER TABLE titles ADD COLUMN source_package_id INTEGER;
UPDATE titles SET source_package_id = (SELECT min(r.package_id) FROM resources r JOIN packages p ON p.id = r.package_id
    WHERE r.title_id = titles.id AND p.customer_id IS NULL) WHERE customer_id IS NULL;

-- A package's non-standard KBART columns, tab-separated, from its last
-- import; a resource's stored rows carry their values after the 25
-- standard fields.
ALTER TABLE packages ADD COLUMN kbart_extra TEXT NOT NULL DEFAULT '';

-- Resources an import removed from their package, with what a later import
-- needs to recognise the title when it comes back (its provider id, first
-- valid identifier, match hash and URL), and the customers' state on them,
-- kept until it comes back (then restored) or is purged.
CREATE TABLE retired_resources (
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    provider_id TEXT NOT NULL DEFAULT '',
    norm        TEXT NOT NULL DEFAULT '',
    match_hash  INTEGER NOT NULL DEFAULT 0,
    url         TEXT NOT NULL DEFAULT '',
    retired     TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (package_id, title_id)
) WITHOUT ROWID;
CREATE INDEX retired_resources_provider ON retired_resources(package_id, provider_id) WHERE provider_id <> '';
CREATE INDEX retired_resources_norm ON retired_resources(package_id, norm) WHERE norm <> '';
CREATE INDEX retired_resources_match ON retired_resources(package_id, match_hash);
CREATE INDEX retired_resources_retired ON retired_resources(retired);

CREATE TABLE retired_customer_resources (
    customer_id        TEXT NOT NULL,
    package_id         INTEGER NOT NULL,
    title_id           INTEGER NOT NULL,
    selected           INTEGER,
    hidden             INTEGER NOT NULL DEFAULT 0,
    custom_coverage    TEXT NOT NULL DEFAULT '',
    coverage_statement TEXT NOT NULL DEFAULT '',
    embargo_unit       INTEGER NOT NULL DEFAULT 0,
    embargo_value      INTEGER NOT NULL DEFAULT 0,
    proxy_id           TEXT,
    udf                TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (package_id, title_id, customer_id)
) WITHOUT ROWID;

-- The change history holds the knowledge base's changes too: a change an
-- import made has customer_id '', key_id 0 and the import's id. Changes of
-- a package, a customer's or an import's, carry its id.
ALTER TABLE changes ADD COLUMN import_id INTEGER;
ALTER TABLE changes ADD COLUMN package_id INTEGER;
CREATE INDEX changes_package ON changes(package_id, id) WHERE package_id IS NOT NULL;
CREATE INDEX changes_import ON changes(import_id) WHERE import_id IS NOT NULL;
CREATE INDEX changes_at ON changes(at) WHERE customer_id = '';

-- The id that the changes of an import carry.
ALTER TABLE imports ADD COLUMN import_id INTEGER NOT NULL DEFAULT 0;

-- The import lock: one row while an import runs, renewed as it goes; a
-- lease that has expired (its process died) may be taken over.
CREATE TABLE import_lock (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    holder  TEXT NOT NULL,
    expires TEXT NOT NULL
);

-- What a running import has read and decided, before it applies it in one
-- short transaction. Only one import runs at a time; these tables are
-- empty between imports.
CREATE TABLE import_titles (
    import_id      INTEGER NOT NULL,
    id             INTEGER NOT NULL,
    name           TEXT NOT NULL,
    sort_name      TEXT NOT NULL,
    publisher      TEXT NOT NULL,
    sort_publisher TEXT NOT NULL,
    sort_subjects  TEXT NOT NULL,
    pub_type       INTEGER NOT NULL,
    description    TEXT NOT NULL,
    peer_reviewed  INTEGER NOT NULL,
    subjects       TEXT NOT NULL,
    contributors   TEXT NOT NULL,
    match_hash     INTEGER NOT NULL,
    PRIMARY KEY (import_id, id)
);
CREATE INDEX import_titles_match ON import_titles(import_id, match_hash);

CREATE TABLE import_idents (
    import_id INTEGER NOT NULL,
    title_id  INTEGER NOT NULL,
    type      INTEGER NOT NULL,
    subtype   INTEGER NOT NULL,
    value     TEXT NOT NULL,
    norm      TEXT NOT NULL,
    valid     INTEGER NOT NULL
);
CREATE INDEX import_idents_norm ON import_idents(import_id, norm);

CREATE TABLE import_rows (
    import_id   INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    provider_id TEXT NOT NULL,
    url         TEXT NOT NULL,
    name        TEXT NOT NULL,
    publisher   TEXT NOT NULL,
    pub_type    INTEGER NOT NULL,
    kbart       TEXT NOT NULL,
    keep        INTEGER NOT NULL,
    PRIMARY KEY (import_id, seq)
);
CREATE INDEX import_rows_title ON import_rows(import_id, title_id, seq);
CREATE INDEX import_rows_provider ON import_rows(import_id, provider_id) WHERE provider_id <> '';

CREATE TABLE import_delta (
    import_id     INTEGER NOT NULL,
    kind          INTEGER NOT NULL,
    title_id      INTEGER NOT NULL,
    provider_id   TEXT NOT NULL DEFAULT '',
    sort_name     TEXT NOT NULL DEFAULT '',
    name          TEXT NOT NULL DEFAULT '',
    publisher     TEXT NOT NULL DEFAULT '',
    pub_type      INTEGER NOT NULL DEFAULT 0,
    url           TEXT NOT NULL DEFAULT '',
    coverage      TEXT NOT NULL DEFAULT '[]',
    embargo_unit  INTEGER NOT NULL DEFAULT 0,
    embargo_value INTEGER NOT NULL DEFAULT 0,
    kbart         TEXT NOT NULL DEFAULT '',
    kbart_hash    INTEGER NOT NULL DEFAULT 0,
    sort_publisher TEXT NOT NULL DEFAULT '',
    match_hash    INTEGER NOT NULL DEFAULT 0,
    ident_type    INTEGER NOT NULL DEFAULT 0,
    ident_subtype INTEGER NOT NULL DEFAULT 0,
    ident_value   TEXT NOT NULL DEFAULT '',
    object        TEXT NOT NULL DEFAULT '',
    action        TEXT NOT NULL DEFAULT '',
    before        TEXT NOT NULL DEFAULT '',
    after         TEXT NOT NULL DEFAULT ''
);
CREATE INDEX import_delta_kind ON import_delta(import_id, kind, title_id);
