-- 023: what the link resolver saw, and the link-outs' clicks by month.
-- Statistics: counts that servers add to (count = count + n), never
-- holdings; a row names its title and package without a foreign key, so
-- that it outlives their deletion. month is yyyy-mm in UTC.

-- The resolver's requests by customer, month, citing source ('' when
-- none), best result (title and package, 0 when nothing matched) and
-- whether it gave the full text.
CREATE TABLE resolver_requests (
    customer_id TEXT NOT NULL,
    month       TEXT NOT NULL,
    source      TEXT NOT NULL,
    title_id    INTEGER NOT NULL,
    package_id  INTEGER NOT NULL,
    full_text   INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (customer_id, month, source, title_id, package_id, full_text)
) WITHOUT ROWID;

-- The requests that found no full text, by what they sought: the
-- citation's title and its first ISSN or ISBN ('' when none).
CREATE TABLE resolver_unmet (
    customer_id  TEXT NOT NULL,
    month        TEXT NOT NULL,
    sought_title TEXT NOT NULL,
    sought_id    TEXT NOT NULL,
    count        INTEGER NOT NULL,
    PRIMARY KEY (customer_id, month, sought_title, sought_id)
) WITHOUT ROWID;

-- The link-outs' clicks by month and by the page the link was made for
-- (via: 'az' or 'resolver'); link_outs keeps each resource's total.
CREATE TABLE link_out_months (
    customer_id TEXT NOT NULL,
    month       TEXT NOT NULL,
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    via         TEXT NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (customer_id, month, package_id, title_id, via)
) WITHOUT ROWID;
