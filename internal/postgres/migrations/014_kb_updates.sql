-- 014: knowledge-base updates that keep customers' work (issue 20).

-- The provider's KBART title_id of a resource's rows: the first thing an
-- import matches a row by. Rows imported before this migration get theirs
-- from their stored KBART at their package's next import.
ALTER TABLE resources ADD COLUMN provider_id text NOT NULL DEFAULT '';
CREATE INDEX resources_provider ON resources(package_id, provider_id) WHERE provider_id <> '';

-- The package whose imports own a managed title's name, publisher, type and
-- identifiers: the one that created it, else (for titles older than this
-- migration) the managed package of lowest id that lists it. NULL when no
-- package owns it; the next package to import it takes it.
ALTER TABLE titles ADD COLUMN source_package_id bigint;
UPDATE titles SET source_package_id = (SELECT min(r.package_id) FROM resources r JOIN packages p ON p.id = r.package_id
    WHERE r.title_id = titles.id AND p.customer_id IS NULL) WHERE customer_id IS NULL;

-- A package's non-standard KBART columns, tab-separated, from its last
-- import; a resource's stored rows carry their values after the 25
-- standard fields.
ALTER TABLE packages ADD COLUMN kbart_extra text NOT NULL DEFAULT '';

-- Resources an import removed from their package, with what a later import
-- needs to recognise the title when it comes back (its provider id, first
-- valid identifier, match hash and URL), and the customers' state on them,
-- kept until it comes back (then restored) or is purged.
CREATE TABLE retired_resources (
    package_id  bigint NOT NULL,
    title_id    bigint NOT NULL,
    provider_id text NOT NULL DEFAULT '',
    norm        text COLLATE "C" NOT NULL DEFAULT '',
    match_hash  bigint NOT NULL DEFAULT 0,
    url         text NOT NULL DEFAULT '',
    retired     timestamptz NOT NULL,
    import_id   bigint NOT NULL,
    PRIMARY KEY (package_id, title_id)
);
CREATE INDEX retired_resources_provider ON retired_resources(package_id, provider_id) WHERE provider_id <> '';
CREATE INDEX retired_resources_norm ON retired_resources(package_id, norm) WHERE norm <> '';
CREATE INDEX retired_resources_match ON retired_resources(package_id, match_hash);
CREATE INDEX retired_resources_retired ON retired_resources(retired);

CREATE TABLE retired_customer_resources (
    customer_id        text NOT NULL,
    package_id         bigint NOT NULL,
    title_id           bigint NOT NULL,
    selected           boolean,
    hidden             boolean NOT NULL DEFAULT false,
    custom_coverage    text NOT NULL DEFAULT '',
    coverage_statement text NOT NULL DEFAULT '',
    embargo_unit       integer NOT NULL DEFAULT 0,
    embargo_value      integer NOT NULL DEFAULT 0,
    proxy_id           text,
    udf                text NOT NULL DEFAULT '',
    PRIMARY KEY (package_id, title_id, customer_id)
);

-- The change history holds the knowledge base's changes too: a change an
-- import made has customer_id '', key_id 0 and the import's id. Changes of
-- a package, a customer's or an import's, carry its id.
ALTER TABLE changes ADD COLUMN import_id bigint;
ALTER TABLE changes ADD COLUMN package_id bigint;
CREATE INDEX changes_package ON changes(package_id, id) WHERE package_id IS NOT NULL;
CREATE INDEX changes_import ON changes(import_id) WHERE import_id IS NOT NULL;
CREATE INDEX changes_at ON changes(at) WHERE customer_id = '';

-- The id that the changes of an import carry.
ALTER TABLE imports ADD COLUMN import_id bigint NOT NULL DEFAULT 0;

-- The import lock: one row while an import runs, renewed as it goes; a
-- lease that has expired (its process died) may be taken over.
CREATE TABLE import_lock (
    id      integer PRIMARY KEY CHECK (id = 1),
    holder  text NOT NULL,
    expires timestamptz NOT NULL
);

-- What a running import has read and decided, before it applies it in one
-- short transaction. Only one import runs at a time; these tables are
-- empty between imports.
CREATE UNLOGGED TABLE import_titles (
    import_id      bigint NOT NULL,
    id             bigint NOT NULL,
    name           text NOT NULL,
    sort_name      text COLLATE "C" NOT NULL,
    publisher      text NOT NULL,
    sort_publisher text COLLATE "C" NOT NULL,
    sort_subjects  text NOT NULL,
    pub_type       integer NOT NULL,
    description    text NOT NULL,
    peer_reviewed  boolean NOT NULL,
    subjects       text NOT NULL,
    contributors   text NOT NULL,
    match_hash     bigint NOT NULL,
    PRIMARY KEY (import_id, id)
);
CREATE INDEX import_titles_match ON import_titles(import_id, match_hash);

CREATE UNLOGGED TABLE import_idents (
    import_id bigint NOT NULL,
    title_id  bigint NOT NULL,
    type      integer NOT NULL,
    subtype   integer NOT NULL,
    value     text NOT NULL,
    norm      text COLLATE "C" NOT NULL,
    valid     boolean NOT NULL
);
CREATE INDEX import_idents_norm ON import_idents(import_id, norm);

CREATE UNLOGGED TABLE import_rows (
    import_id   bigint NOT NULL,
    seq         bigint NOT NULL,
    title_id    bigint NOT NULL,
    provider_id text NOT NULL,
    url         text NOT NULL,
    name        text NOT NULL,
    publisher   text NOT NULL,
    pub_type    integer NOT NULL,
    kbart       text NOT NULL,
    keep        boolean NOT NULL,
    PRIMARY KEY (import_id, seq)
);
CREATE INDEX import_rows_title ON import_rows(import_id, title_id, seq);
CREATE INDEX import_rows_provider ON import_rows(import_id, provider_id) WHERE provider_id <> '';

CREATE UNLOGGED TABLE import_delta (
    import_id     bigint NOT NULL,
    kind          integer NOT NULL,
    title_id      bigint NOT NULL,
    provider_id   text NOT NULL DEFAULT '',
    sort_name     text COLLATE "C" NOT NULL DEFAULT '',
    name          text NOT NULL DEFAULT '',
    publisher     text NOT NULL DEFAULT '',
    pub_type      integer NOT NULL DEFAULT 0,
    url           text NOT NULL DEFAULT '',
    coverage      text NOT NULL DEFAULT '[]',
    embargo_unit  integer NOT NULL DEFAULT 0,
    embargo_value integer NOT NULL DEFAULT 0,
    kbart         text NOT NULL DEFAULT '',
    kbart_hash    bigint NOT NULL DEFAULT 0,
    sort_publisher text NOT NULL DEFAULT '',
    match_hash    bigint NOT NULL DEFAULT 0,
    ident_type    integer NOT NULL DEFAULT 0,
    ident_subtype integer NOT NULL DEFAULT 0,
    ident_value   text NOT NULL DEFAULT '',
    object        text NOT NULL DEFAULT '',
    action        text NOT NULL DEFAULT '',
    before        text NOT NULL DEFAULT '',
    after         text NOT NULL DEFAULT ''
);
CREATE INDEX import_delta_kind ON import_delta(import_id, kind, title_id);
