-- 017: sessions of the staff console (package pages). A session is named
-- by the SHA-256 of its random token (hex), which only the browser's
-- cookie holds; it belongs to the API key that signed in, so revoking the
-- key ends it (a lookup joins api_keys). expires is Unix seconds.
CREATE TABLE console_sessions (
    token_hash  text PRIMARY KEY,
    key_id      bigint NOT NULL,
    customer_id text NOT NULL,
    expires     bigint NOT NULL
);
CREATE INDEX console_sessions_expires ON console_sessions(expires);
