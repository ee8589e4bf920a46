-- 019: a random identity made with the database (versions row "store"), so
-- that a title index file written for one database is never caught up
-- with another's change records (title_changes): counters start again in
-- every new database.
INSERT INTO versions(name, n) VALUES ('store', (random() * 9000000000000000000)::bigint) ON CONFLICT (name) DO NOTHING;
