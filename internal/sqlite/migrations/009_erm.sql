-- 009: the resource management service's objects (administrative access,
-- contacts, external documents, licenses) and their assignments, all of
-- one customer. An object keeps the extensionObject's fields as columns
-- and the rest of its payload as a JSON object (body), which lists filter
-- and sort with json_extract. Times are UTC RFC 3339 with nine fraction
-- digits ("2006-01-02T15:04:05.000000000Z"), so that text order is time
-- order. Ids are UUIDs given by the server; an id is unique among all the
-- customer's objects, whatever their kind. Lists are of one kind, newest
-- first by default: the index leads with the customer and the kind.
CREATE TABLE erm_objects (
    customer_id TEXT NOT NULL REFERENCES customers(id),
    id          TEXT NOT NULL,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL,
    description TEXT NOT NULL,
    created     TEXT NOT NULL,
    updated     TEXT NOT NULL,
    body        TEXT NOT NULL,
    PRIMARY KEY (customer_id, id)
) WITHOUT ROWID;
CREATE INDEX erm_objects_kind ON erm_objects(customer_id, kind, created);

-- An assignment maps one of the customer's objects to a knowledge base
-- object (relative_url, e.g. /vendors/19/packages/123) or another
-- system's object (link_url, the AssignmentDto's link.url); body is the
-- AssignmentDto as given. object_kind copies the object's kind. Deleting
-- an object deletes its assignments first (the foreign key refuses an
-- object deleted before them). The indexes serve the lists by object and
-- the searches of objects assigned to a URL.
CREATE TABLE erm_assignments (
    customer_id  TEXT NOT NULL REFERENCES customers(id),
    id           TEXT NOT NULL,
    object_id    TEXT NOT NULL,
    object_kind  TEXT NOT NULL,
    relative_url TEXT NOT NULL DEFAULT '',
    link_url     TEXT NOT NULL DEFAULT '',
    created      TEXT NOT NULL,
    body         TEXT NOT NULL,
    PRIMARY KEY (customer_id, id),
    FOREIGN KEY (customer_id, object_id) REFERENCES erm_objects(customer_id, id)
) WITHOUT ROWID;
CREATE INDEX erm_assignments_object ON erm_assignments(customer_id, object_id);
CREATE INDEX erm_assignments_relative_url ON erm_assignments(customer_id, relative_url);
CREATE INDEX erm_assignments_link_url ON erm_assignments(customer_id, link_url);
