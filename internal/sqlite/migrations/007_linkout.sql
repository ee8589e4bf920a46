-- 007: link-outs of the publication search service.
-- Secrets of the server, one row each, created at first use and shared by
-- every server over this file. 'linkout' signs link-out tokens (32 random
-- bytes); losing or replacing it invalidates every link-out handed out.
CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
) WITHOUT ROWID;

-- How often patrons followed a customer's link-out to a resource, and when
-- last (RFC 3339, UTC). Statistics: a row outlives the resource's removal
-- from the package or the customer's collection.
CREATE TABLE link_outs (
    customer_id TEXT NOT NULL,
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    last        TEXT NOT NULL,
    PRIMARY KEY (customer_id, package_id, title_id)
) WITHOUT ROWID;
