-- 028: collection analysis (issue 38). The customer's custom coverage and
-- embargo of the resources of given packages (kb.CoverageReader's
-- CustomCoverages), read through an index of the few resources that have
-- one rather than over every resource the customer selected.
CREATE INDEX customer_resources_custom ON customer_resources(customer_id, package_id, title_id)
    WHERE custom_coverage <> '' OR embargo_unit <> 0;
