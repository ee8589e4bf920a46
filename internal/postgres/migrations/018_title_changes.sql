-- 018: the titles that each move of the "titles" version counter changed,
-- so that a title index catches up by reading those titles again instead
-- of rebuilding. title_id 0 marks a move that changed more than it lists
-- (an import). Rows older than the last few thousand moves are pruned.
CREATE TABLE title_changes (
    version  bigint NOT NULL,
    title_id bigint NOT NULL,
    PRIMARY KEY (version, title_id)
);
