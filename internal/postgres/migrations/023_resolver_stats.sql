-- 023: what the link resolver saw, and the link-outs' clicks by month.
-- Statistics: counts that servers add to (count = count + n), never
-- holdings; a row names its title and package without a foreign key, so
-- that it outlives their deletion. month is yyyy-mm in UTC.

-- The resolver's requests by customer, month, citing source ('' when
-- none), best result (title and package, 0 when nothing matched) and
-- whether it gave the full text.
CREATE TABLE resolver_requests (
    customer_id text NOT NULL,
    month       text COLLATE "C" NOT NULL,
    source      text COLLATE "C" NOT NULL,
    title_id    bigint NOT NULL,
    package_id  bigint NOT NULL,
    full_text   boolean NOT NULL,
    count       bigint NOT NULL,
    PRIMARY KEY (customer_id, month, source, title_id, package_id, full_text)
);

-- The requests that found no full text, by what they sought: the
-- citation's title and its first ISSN or ISBN ('' when none).
CREATE TABLE resolver_unmet (
    customer_id  text NOT NULL,
    month        text COLLATE "C" NOT NULL,
    sought_title text COLLATE "C" NOT NULL,
    sought_id    text COLLATE "C" NOT NULL,
    count        bigint NOT NULL,
    PRIMARY KEY (customer_id, month, sought_title, sought_id)
);

-- The link-outs' clicks by month and by the page the link was made for
-- (via: 'az' or 'resolver'); link_outs keeps each resource's total.
CREATE TABLE link_out_months (
    customer_id text NOT NULL,
    month       text COLLATE "C" NOT NULL,
    package_id  bigint NOT NULL,
    title_id    bigint NOT NULL,
    via         text NOT NULL,
    count       bigint NOT NULL,
    PRIMARY KEY (customer_id, month, package_id, title_id, via)
);
