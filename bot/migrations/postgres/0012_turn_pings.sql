-- PostgreSQL version of bot/migrations/0012_turn_pings.sql.
-- The people who asked for a turn ping: a short DM when their move comes (the hand's bell button).
-- A person without a row gets none; the choice is theirs across servers and games.

CREATE TABLE turn_pings (
    user_id    BIGINT PRIMARY KEY,
    updated_at DOUBLE PRECISION NOT NULL
);
