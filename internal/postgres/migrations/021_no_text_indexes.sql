-- 021: the stores keep no text index. Titles are searched by the
-- in-memory title index (internal/search) that every server keeps in step
-- with the store, vendor and package names by their folded names
-- (kbsql.nameMatch), so the weighted tsvectors, their GIN indexes and the
-- trigram indexes have no reader, and an import no longer maintains them.
-- sort_subjects fed the titles' tsvector only; the publisher order index
-- served the store's own publisher searches only.
ALTER TABLE titles DROP COLUMN fts;
ALTER TABLE titles DROP COLUMN sort_subjects;
ALTER TABLE import_titles DROP COLUMN sort_subjects;
DROP INDEX titles_name_trgm;
DROP INDEX titles_publisher_trgm;
DROP INDEX titles_publisher;
ALTER TABLE vendors DROP COLUMN fts;
ALTER TABLE packages DROP COLUMN fts;
