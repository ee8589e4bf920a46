-- 026: feeds (issue 37). changes.feed_id: the feed whose run made a
-- change (an import it applied, a holdings file it set), NULL for every
-- other change. feeds.added_by: 'operator' for a feed added from the
-- command line, 'customer' for a holdings feed a library added through
-- the API or the console, whose address is fetched only over the public
-- network. imports_package: when an import last changed a package (a
-- holdings feed applies its file again after one).
ALTER TABLE changes ADD COLUMN feed_id INTEGER;
ALTER TABLE feeds ADD COLUMN added_by TEXT NOT NULL DEFAULT 'operator';
CREATE INDEX feeds_customer ON feeds(customer_id) WHERE customer_id <> '';
CREATE INDEX imports_package ON imports(package_id, finished);
