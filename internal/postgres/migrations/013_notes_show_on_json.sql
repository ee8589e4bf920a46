-- 013: a note's show-on flags as a JSON array in text, as SQLite's
-- migration 006 keeps them, so that both engines read and write notes with
-- the same statements (the shared store of internal/kbsql). Numbered after
-- SQLite's 012: the two directories number their migrations together.
--
-- A kbserver older than this migration reports such a database not ready.
-- To go back to one, undo it by hand first:
--   CREATE FUNCTION pg_temp.flags(j text) RETURNS text[] LANGUAGE sql
--     AS $$ SELECT ARRAY(SELECT json_array_elements_text(j::json)) $$;
--   ALTER TABLE notes ALTER COLUMN show_on DROP DEFAULT;
--   ALTER TABLE notes ALTER COLUMN show_on TYPE text[] USING pg_temp.flags(show_on);
--   ALTER TABLE notes ALTER COLUMN show_on SET DEFAULT '{}';
--   DELETE FROM schema_migrations WHERE version = 13;
ALTER TABLE notes ALTER COLUMN show_on DROP DEFAULT;
ALTER TABLE notes ALTER COLUMN show_on TYPE text USING array_to_json(show_on)::text;
ALTER TABLE notes ALTER COLUMN show_on SET DEFAULT '[]';
