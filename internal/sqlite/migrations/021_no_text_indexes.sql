-- 021: the stores keep no text index. Titles are searched by the
-- in-memory title index (internal/search) that every server keeps in step
-- with the store, vendor and package names by their folded names
-- (kbsql.nameMatch), so the FTS5 word and trigram tables have no reader
-- and an import no longer writes them. The publisher order index served
-- the store's own publisher searches only. sort_subjects of the import
-- staging table fed PostgreSQL's text index (this schema never read it).
DROP TABLE title_fts;
DROP TABLE title_tri;
DROP TABLE vendor_fts;
DROP TABLE package_fts;
DROP INDEX titles_publisher;
ALTER TABLE import_titles DROP COLUMN sort_subjects;
