-- 006: customers' notes on resources (a title in a package), shown with the
-- resource by the publication search service (PfNote). A note is the
-- customer's own: it names the resource but has no foreign key to it, so
-- that a re-import or a deleted custom package that removes the resource
-- does not fail on its notes (they are then never asked for). show_on is a
-- JSON array of strings (showOnFlags), '[]' for none. Notes are read by
-- resource for a page of search results: the index leads with the
-- customer and the resource.
CREATE TABLE notes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    customer_id TEXT NOT NULL REFERENCES customers(id),
    package_id  INTEGER NOT NULL,
    title_id    INTEGER NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    rank        INTEGER NOT NULL DEFAULT 0,
    text        TEXT NOT NULL,
    icon_url    TEXT NOT NULL DEFAULT '',
    icon_id     INTEGER NOT NULL DEFAULT 0,
    alt_text    TEXT NOT NULL DEFAULT '',
    hover_text  TEXT NOT NULL DEFAULT '',
    link_url    TEXT NOT NULL DEFAULT '',
    show_on     TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX notes_resource ON notes(customer_id, package_id, title_id);
