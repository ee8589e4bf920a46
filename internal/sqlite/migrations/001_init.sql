-- 001: the knowledge base, customers and their state.

-- Vendors. customer_id is set on a customer's own vendor (isCustomer), which
-- holds its custom packages. Ids of vendors, packages and titles are never
-- reused (AUTOINCREMENT): other systems keep them.
CREATE TABLE vendors (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    sort_name   TEXT NOT NULL,
    customer_id TEXT,
    token_fact  TEXT,
    token_prompt TEXT,
    token_help  TEXT
);
CREATE UNIQUE INDEX vendors_managed_name ON vendors(sort_name) WHERE customer_id IS NULL;
CREATE INDEX vendors_sort ON vendors(sort_name, id);
CREATE VIRTUAL TABLE vendor_fts USING fts5(name, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');

-- Packages. customer_id is set on a custom package.
CREATE TABLE packages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    vendor_id    INTEGER NOT NULL REFERENCES vendors(id),
    name         TEXT NOT NULL,
    sort_name    TEXT NOT NULL,
    customer_id  TEXT,
    content_type INTEGER NOT NULL,
    package_type INTEGER NOT NULL,
    title_count  INTEGER NOT NULL DEFAULT 0,
    import_gen   INTEGER NOT NULL DEFAULT 0, -- number of the package's last import
    token_fact   TEXT,
    token_prompt TEXT,
    token_help   TEXT
);
CREATE UNIQUE INDEX packages_vendor_name ON packages(vendor_id, sort_name);
CREATE INDEX packages_sort ON packages(sort_name, id);
CREATE VIRTUAL TABLE package_fts USING fts5(name, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');

-- Titles. customer_id is set on a custom title. sort_name and sort_publisher
-- are the folded forms used for ordering, exact and begins-with matching.
-- match_hash finds the title of an import row without identifiers.
CREATE TABLE titles (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name           TEXT NOT NULL,
    sort_name      TEXT NOT NULL,
    publisher      TEXT NOT NULL DEFAULT '',
    sort_publisher TEXT NOT NULL DEFAULT '',
    pub_type       INTEGER NOT NULL,
    customer_id    TEXT,
    edition        TEXT NOT NULL DEFAULT '',
    description    TEXT NOT NULL DEFAULT '',
    peer_reviewed  INTEGER NOT NULL DEFAULT 0,
    subjects       TEXT NOT NULL DEFAULT '',  -- JSON [[type,name],...]
    contributors   TEXT NOT NULL DEFAULT '',  -- JSON [[type,name],...]
    match_hash     INTEGER NOT NULL DEFAULT 0 -- hash of folded name|publisher|type
);
CREATE INDEX titles_sort ON titles(sort_name, id);
CREATE INDEX titles_publisher ON titles(sort_publisher, id);
CREATE INDEX titles_match ON titles(match_hash);

-- Word index (bm25 relevance) over title name, publisher and subjects.
CREATE VIRTUAL TABLE title_fts USING fts5(name, publisher, subjects, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2');
-- Trigram index for substring ("contains") matching over name and publisher.
CREATE VIRTUAL TABLE title_tri USING fts5(name, publisher, content='', contentless_delete=1,
    tokenize='trigram remove_diacritics 1');

-- ISSNs and ISBNs. norm is the matching form: a valid ISSN as 1234-567X, a
-- valid ISBN as its 13 digits; invalid ones keep their upper-cased text.
CREATE TABLE title_identifiers (
    title_id INTEGER NOT NULL REFERENCES titles(id) ON DELETE CASCADE,
    type     INTEGER NOT NULL,
    subtype  INTEGER NOT NULL,
    value    TEXT NOT NULL,
    norm     TEXT NOT NULL,
    valid    INTEGER NOT NULL,
    PRIMARY KEY (title_id, type, subtype, value)
) WITHOUT ROWID;
CREATE INDEX title_identifiers_norm ON title_identifiers(norm, title_id);

-- Resources: a title in a package. kbart holds the source KBART rows (25
-- tab-separated fields a row, rows separated by newlines) so that a holdings
-- snapshot gives every field back; kbart_hash detects changes on re-import.
-- gen is the package import that last listed the resource (rows an import
-- does not list are removed at its end); prev_hash holds kbart_hash during
-- an import that rewrote the row. coverage is the managed coverage as JSON
-- [[begin,end],...].
CREATE TABLE resources (
    package_id    INTEGER NOT NULL REFERENCES packages(id),
    title_id      INTEGER NOT NULL REFERENCES titles(id),
    sort_name     TEXT NOT NULL,
    url           TEXT NOT NULL DEFAULT '',
    coverage      TEXT NOT NULL DEFAULT '[]',
    embargo_unit  INTEGER NOT NULL DEFAULT 0,
    embargo_value INTEGER NOT NULL DEFAULT 0,
    kbart         TEXT NOT NULL DEFAULT '',
    kbart_hash    INTEGER NOT NULL DEFAULT 0,
    gen           INTEGER NOT NULL DEFAULT 0,
    prev_hash     INTEGER,
    PRIMARY KEY (package_id, title_id)
) WITHOUT ROWID;
CREATE INDEX resources_package_sort ON resources(package_id, sort_name, title_id);
CREATE INDEX resources_title ON resources(title_id, package_id);

-- Customers, keys and proxies.
CREATE TABLE customers (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    vendor_id  INTEGER NOT NULL REFERENCES vendors(id),
    root_proxy TEXT NOT NULL DEFAULT '<n>',
    labels     TEXT NOT NULL DEFAULT ''  -- JSON of the five labels; '' = none set
) WITHOUT ROWID;

CREATE TABLE api_keys (
    id          INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    prefix      INTEGER NOT NULL,  -- the hash's first 8 bytes, to find the row
    hash        BLOB NOT NULL,
    created     TEXT NOT NULL
);
CREATE INDEX api_keys_prefix ON api_keys(prefix);

CREATE TABLE proxies (
    customer_id TEXT NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    url_mask    TEXT NOT NULL,
    PRIMARY KEY (customer_id, id)
) WITHOUT ROWID;

-- A customer's package-level state. Selecting a package is one row here,
-- whatever the package's size.
CREATE TABLE customer_packages (
    customer_id TEXT NOT NULL,
    package_id  INTEGER NOT NULL,
    selected    INTEGER NOT NULL DEFAULT 0,
    hidden      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (customer_id, package_id)
) WITHOUT ROWID;

-- A customer's title-level exceptions inside a package. selected NULL means
-- "as the package says".
CREATE TABLE customer_resources (
    customer_id TEXT NOT NULL,
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    selected    INTEGER,
    hidden      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (customer_id, package_id, title_id)
) WITHOUT ROWID;
CREATE INDEX customer_resources_title ON customer_resources(customer_id, title_id);
