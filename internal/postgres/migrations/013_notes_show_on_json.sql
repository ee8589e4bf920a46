-- 013: a note's show-on flags as a JSON array in text, as SQLite's
-- migration 006 keeps them, so that both engines read and write notes with
-- the same statements (the shared store of internal/kbsql). Numbered after
-- SQLite's 012: the two directories number their migrations together.
ALTER TABLE notes ALTER COLUMN show_on DROP DEFAULT;
ALTER TABLE notes ALTER COLUMN show_on TYPE text USING array_to_json(show_on)::text;
ALTER TABLE notes ALTER COLUMN show_on SET DEFAULT '[]';
