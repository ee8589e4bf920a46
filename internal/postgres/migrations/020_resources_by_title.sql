-- 020: a page of titles reads each title's resources (pages of 25 titles,
-- publication search's records, GET title) through resources_title, then
-- each row from the table: a row a page of a large table, most of a title
-- search's time at 3M titles. This index includes what that read takes,
-- so a title's resources are one index-only range.
CREATE INDEX resources_by_title ON resources(title_id, package_id) INCLUDE (coverage, embargo_unit, embargo_value, url);
DROP INDEX resources_title;
