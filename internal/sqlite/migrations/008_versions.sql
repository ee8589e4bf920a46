-- 008: version counters of what a cached publication search collection is
-- built from. 'kb' counts imports (they change packages' titles for every
-- customer); 'c:<custid>' counts a customer's changes to its holdings. A
-- cache keyed by both is stale as soon as either moves.
CREATE TABLE versions (
    name TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;
