-- 002: a customer's customisations and the change history.

-- A customer's state of a vendor: its proxy (NULL: inherited from the root)
-- and token value.
CREATE TABLE customer_vendors (
    customer_id TEXT NOT NULL,
    vendor_id   INTEGER NOT NULL,
    proxy_id    TEXT,
    token_value TEXT,
    PRIMARY KEY (customer_id, vendor_id)
) WITHOUT ROWID;

-- Package-level customisation. proxy_id NULL: inherited from the vendor.
ALTER TABLE customer_packages ADD COLUMN cov_begin TEXT NOT NULL DEFAULT '';
ALTER TABLE customer_packages ADD COLUMN cov_end TEXT NOT NULL DEFAULT '';
ALTER TABLE customer_packages ADD COLUMN proxy_id TEXT;
ALTER TABLE customer_packages ADD COLUMN token_value TEXT;
ALTER TABLE customer_packages ADD COLUMN allow_add INTEGER NOT NULL DEFAULT 0;

-- Title-level customisation. custom_coverage is JSON [[begin,end],...],
-- newest first; udf is JSON of the five user-defined fields; proxy_id NULL:
-- inherited from the package.
ALTER TABLE customer_resources ADD COLUMN custom_coverage TEXT NOT NULL DEFAULT '';
ALTER TABLE customer_resources ADD COLUMN coverage_statement TEXT NOT NULL DEFAULT '';
ALTER TABLE customer_resources ADD COLUMN embargo_unit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE customer_resources ADD COLUMN embargo_value INTEGER NOT NULL DEFAULT 0;
ALTER TABLE customer_resources ADD COLUMN proxy_id TEXT;
ALTER TABLE customer_resources ADD COLUMN udf TEXT NOT NULL DEFAULT '';

-- Every change a customer makes: one row a request, whatever its size.
CREATE TABLE changes (
    id          INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    at          TEXT NOT NULL,
    key_id      INTEGER NOT NULL,
    object      TEXT NOT NULL,
    action      TEXT NOT NULL,
    before      TEXT NOT NULL,
    after       TEXT NOT NULL
);
CREATE INDEX changes_customer ON changes(customer_id, id);
