-- 027: collection analysis (issue 38). The link-out clicks of given titles
-- in a range of months (kb.LinkUseReader), read by customer and title,
-- not over every title the customer clicked in those months.
CREATE INDEX link_out_months_title ON link_out_months(customer_id, title_id, month);
