-- 005: publication search profiles (custid.groupid.profileid). The
-- password is stored as a slow salted hash (kb.HashPassword), '' for a
-- profile without one; guest admits requests without a password.
CREATE TABLE profiles (
    customer_id   TEXT NOT NULL REFERENCES customers(id),
    group_id      TEXT NOT NULL,
    profile_id    TEXT NOT NULL,
    password_hash TEXT NOT NULL DEFAULT '',
    guest         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (customer_id, group_id, profile_id)
) WITHOUT ROWID;
