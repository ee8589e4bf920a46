-- 004: the resource management service's objects (administrative access,
-- contacts, external documents, licenses) and their assignments, all of
-- one customer, as in SQLite's migration 009.
--
-- An object keeps the extensionObject's fields as columns and the rest of
-- its payload as given (body: the exact text, which the store must give
-- back byte for byte, so not jsonb, which reorders and respaces it). doc is
-- the same payload parsed once on write, which lists filter and sort on
-- with jsonb operators instead of parsing every body of every list.
-- Times are UTC RFC 3339 with nine fraction digits
-- ("2006-01-02T15:04:05.000000000Z"), not timestamptz: it keeps
-- microseconds only, and the store must give back nanoseconds; in the "C"
-- collation text order is time order. Ids are UUIDs given by the server;
-- an id is unique among all the customer's objects, whatever their kind.
CREATE TABLE erm_objects (
    customer_id text NOT NULL REFERENCES customers(id),
    id          text COLLATE "C" NOT NULL,
    kind        text COLLATE "C" NOT NULL,
    status      text COLLATE "C" NOT NULL,
    description text COLLATE "C" NOT NULL,
    created     text COLLATE "C" NOT NULL,
    updated     text COLLATE "C" NOT NULL,
    body        text NOT NULL,
    doc         jsonb GENERATED ALWAYS AS (body::jsonb) STORED,
    PRIMARY KEY (customer_id, id)
);
-- Lists are of one customer's objects of one kind, newest first then by
-- id by default: the index gives a page of them without a sort. The other
-- sorts and the filters work on one customer's objects of one kind, which
-- the index finds; they are a service's records, hundreds or thousands,
-- not millions, so no index per payload field.
CREATE INDEX erm_objects_kind ON erm_objects(customer_id, kind, created DESC, id);

-- An assignment maps one of the customer's objects to a knowledge base
-- object (relative_url, e.g. /vendors/19/packages/123) or another
-- system's object (link_url, the AssignmentDto's link.url); body is the
-- AssignmentDto as given. object_kind copies the object's kind. Deleting
-- an object deletes its assignments first (the foreign key refuses an
-- object deleted before them).
CREATE TABLE erm_assignments (
    customer_id  text NOT NULL REFERENCES customers(id),
    id           text COLLATE "C" NOT NULL,
    object_id    text COLLATE "C" NOT NULL,
    object_kind  text COLLATE "C" NOT NULL,
    relative_url text COLLATE "C" NOT NULL DEFAULT '',
    link_url     text COLLATE "C" NOT NULL DEFAULT '',
    created      text COLLATE "C" NOT NULL,
    body         text NOT NULL,
    PRIMARY KEY (customer_id, id),
    FOREIGN KEY (customer_id, object_id) REFERENCES erm_objects(customer_id, id)
);
-- The list of all the customer's assignments, oldest first then by id;
-- the lists by object (and the foreign key's checks); the searches of
-- objects assigned to a URL, by relative or link URL (a bitmap OR of the
-- two).
CREATE INDEX erm_assignments_created ON erm_assignments(customer_id, created, id);
CREATE INDEX erm_assignments_object ON erm_assignments(customer_id, object_id);
CREATE INDEX erm_assignments_relative_url ON erm_assignments(customer_id, relative_url);
CREATE INDEX erm_assignments_link_url ON erm_assignments(customer_id, link_url);
