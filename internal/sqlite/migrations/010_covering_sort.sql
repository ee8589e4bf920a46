-- 010: the name and publisher indexes cover the visibility test
-- (customer_id), so that counting the titles of a begins-with or exact
-- search reads the index alone instead of one title row per match.
-- Their order (name or publisher, then id) is unchanged.
DROP INDEX titles_sort;
CREATE INDEX titles_sort ON titles(sort_name, id, customer_id);
DROP INDEX titles_publisher;
CREATE INDEX titles_publisher ON titles(sort_publisher, id, customer_id);
