-- 003: holdings snapshots.

-- One snapshot a customer: the latest build started (POST), its status and,
-- when Completed, its row count. root_proxy is frozen with the other state.
CREATE TABLE snapshots (
    customer_id TEXT PRIMARY KEY,
    build       INTEGER NOT NULL,
    status      TEXT NOT NULL,
    created     TEXT NOT NULL,
    total       INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    root_proxy  TEXT NOT NULL DEFAULT '<n>'
) WITHOUT ROWID;

-- The customer's selections and customisations as they were at the POST:
-- copies of customer_packages, customer_resources, customer_vendors and
-- the proxies, which the build reads (and a build resumed after a restart
-- reads again), so that later changes wait for the next POST.
CREATE TABLE snapshot_packages (
    customer_id TEXT NOT NULL,
    package_id  INTEGER NOT NULL,
    selected    INTEGER NOT NULL,
    hidden      INTEGER NOT NULL,
    proxy_id    TEXT,
    PRIMARY KEY (customer_id, package_id)
) WITHOUT ROWID;
CREATE TABLE snapshot_resources (
    customer_id        TEXT NOT NULL,
    package_id         INTEGER NOT NULL,
    title_id           INTEGER NOT NULL,
    selected           INTEGER,
    hidden             INTEGER NOT NULL,
    custom_coverage    TEXT NOT NULL,
    coverage_statement TEXT NOT NULL,
    embargo_unit       INTEGER NOT NULL,
    embargo_value      INTEGER NOT NULL,
    proxy_id           TEXT,
    PRIMARY KEY (customer_id, package_id, title_id)
) WITHOUT ROWID;
CREATE TABLE snapshot_vendors (
    customer_id TEXT NOT NULL,
    vendor_id   INTEGER NOT NULL,
    proxy_id    TEXT,
    PRIMARY KEY (customer_id, vendor_id)
) WITHOUT ROWID;
CREATE TABLE snapshot_proxies (
    customer_id TEXT NOT NULL,
    id          TEXT NOT NULL,
    url_mask    TEXT NOT NULL,
    PRIMARY KEY (customer_id, id)
) WITHOUT ROWID;

-- The built snapshot: one row a resource, in serving order. seq is the
-- 1-based offset of the resource's first holding row; nrows its number of
-- rows. The KBART rows, names and customisations are copied at build time.
CREATE TABLE snapshot_rows (
    customer_id        TEXT NOT NULL,
    seq                INTEGER NOT NULL,
    nrows              INTEGER NOT NULL,
    package_id         INTEGER NOT NULL,
    title_id           INTEGER NOT NULL,
    kbart              TEXT NOT NULL,
    title_name         TEXT NOT NULL,
    pub_type           INTEGER NOT NULL,
    package_name       TEXT NOT NULL,
    vendor_id          INTEGER NOT NULL,
    vendor_name        TEXT NOT NULL,
    url                TEXT NOT NULL,
    custom_coverage    TEXT NOT NULL,
    coverage_statement TEXT NOT NULL,
    embargo_unit       INTEGER NOT NULL,
    embargo_value      INTEGER NOT NULL,
    url_mask           TEXT NOT NULL,
    PRIMARY KEY (customer_id, seq)
) WITHOUT ROWID;

-- Customers' state by package, for the deletes of a package import (which
-- touches every customer's state on the package's removed titles).
CREATE INDEX customer_resources_package ON customer_resources(package_id, title_id);
CREATE INDEX customer_packages_package ON customer_packages(package_id);
