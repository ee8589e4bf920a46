-- 011: the custom titles, by customer. A title search counts its matches
-- straight from the search index, less the other customers' custom titles
-- among them: this index finds those few without reading the title table.
CREATE INDEX titles_custom ON titles(customer_id) WHERE customer_id IS NOT NULL;
