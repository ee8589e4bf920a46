-- 024: a publication search profile's interlibrary-loan request form: the
-- link resolver offers it, with the citation appended, when the library
-- holds nothing that gives the full text ('' for none).
ALTER TABLE profiles ADD COLUMN request_url TEXT NOT NULL DEFAULT '';
