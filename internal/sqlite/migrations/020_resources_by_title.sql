-- 020: a page of titles (pages of 25 titles, publication search's records,
-- GET title) read each title's resources through resources_title and then
-- each row from the table, which is clustered by package: about one file
-- page read a resource row, nearly half the server's CPU under the title
-- search mix at 3M titles. This index holds what that read takes, so a
-- title's resources are one range of one index; it replaces
-- resources_title (the same leading columns).
CREATE INDEX resources_by_title ON resources(title_id, package_id, coverage, embargo_unit, embargo_value, url);
DROP INDEX resources_title;
