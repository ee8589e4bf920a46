-- 002: holdings snapshots, as the SQLite store keeps them (its migrations
-- 003 and 004): the customer's state frozen at the POST, then segments and
-- offset marks, not a copied row per holding, so that a build costs the
-- number of the customer's packages and customisations, not of its
-- holdings.

-- One snapshot a customer: the latest build started (POST), its status and,
-- when Completed, its row count. root_proxy is frozen with the other state.
-- Several servers may share the database: the one that builds holds a
-- session advisory lock on the customer's snapshot (snapshot_build.go)
-- for as long as it builds, which ends with its connection if it dies.
CREATE TABLE snapshots (
    customer_id text PRIMARY KEY,
    build       bigint NOT NULL,
    status      text NOT NULL,
    created     timestamptz NOT NULL,
    total       bigint NOT NULL DEFAULT 0,
    error       text NOT NULL DEFAULT '',
    root_proxy  text NOT NULL DEFAULT '<n>'
);
CREATE INDEX snapshots_in_progress ON snapshots(customer_id) WHERE status = 'In Progress';

-- The customer's selections and customisations as they were at the POST:
-- copies of customer_packages, customer_resources, customer_vendors and
-- the proxies, which the build reads (and a build resumed by another
-- server reads again), so that later changes wait for the next POST.
CREATE TABLE snapshot_packages (
    customer_id text NOT NULL,
    package_id  bigint NOT NULL,
    selected    boolean NOT NULL,
    hidden      boolean NOT NULL,
    proxy_id    text,
    PRIMARY KEY (customer_id, package_id)
);
CREATE TABLE snapshot_resources (
    customer_id        text NOT NULL,
    package_id         bigint NOT NULL,
    title_id           bigint NOT NULL,
    selected           boolean,
    hidden             boolean NOT NULL,
    custom_coverage    text NOT NULL,
    coverage_statement text NOT NULL,
    embargo_unit       integer NOT NULL,
    embargo_value      integer NOT NULL,
    proxy_id           text,
    PRIMARY KEY (customer_id, package_id, title_id)
);
CREATE TABLE snapshot_vendors (
    customer_id text NOT NULL,
    vendor_id   bigint NOT NULL,
    proxy_id    text,
    PRIMARY KEY (customer_id, vendor_id)
);
CREATE TABLE snapshot_proxies (
    customer_id text NOT NULL,
    id          text NOT NULL,
    url_mask    text NOT NULL,
    PRIMARY KEY (customer_id, id)
);

-- A customer's custom packages as they were at the POST: the customer
-- changes them (a title removed is a deselection), so they are frozen with
-- the rest of its state. The title fields are a fallback for a custom title
-- deleted since; a title that still exists is read live.
CREATE TABLE snapshot_custom_resources (
    customer_id  text NOT NULL,
    package_id   bigint NOT NULL,
    title_id     bigint NOT NULL,
    url          text NOT NULL,
    name         text NOT NULL,
    pub_type     integer NOT NULL,
    publisher    text NOT NULL,
    contributors text NOT NULL,
    identifiers  text NOT NULL, -- JSON [[subtype,value],...]
    PRIMARY KEY (customer_id, package_id, title_id)
);

-- A built snapshot: one segment per package that has holdings, in package
-- id order, with the 1-based row at which it starts and its row count.
-- kind: 0 a managed package selected as a whole (less its title-level
-- exclusions), 1 titles selected one by one in a managed package, 2 a
-- custom package. url_mask is the package's effective proxy (package,
-- vendor, root); names are a fallback for a package deleted since.
-- customised: the customer has title-level state in the package (else its
-- rows are read without looking for any).
CREATE TABLE snapshot_segments (
    customer_id  text NOT NULL,
    package_id   bigint NOT NULL,
    kind         integer NOT NULL,
    seq          bigint NOT NULL,
    nrows        bigint NOT NULL,
    package_name text NOT NULL,
    vendor_id    bigint NOT NULL,
    vendor_name  text NOT NULL,
    url_mask     text NOT NULL,
    customised   boolean NOT NULL,
    PRIMARY KEY (customer_id, package_id)
);

-- Marks into a built snapshot: the resource (package, title) whose rows
-- start at row seq; every segment's first resource and every 256th after.
-- A page starts at the mark at or before its offset.
CREATE TABLE snapshot_marks (
    customer_id text NOT NULL,
    seq         bigint NOT NULL,
    package_id  bigint NOT NULL,
    title_id    bigint NOT NULL,
    PRIMARY KEY (customer_id, seq)
);
