-- PostgreSQL version of bot/migrations/0002_computers_and_timers.sql.

-- The level of a computer player ('easy', 'normal', 'hard'); NULL for a person.
ALTER TABLE seats ADD COLUMN computer TEXT;
-- Turns in a row that ran out of time, and whether the computer keeps the seat until the
-- player says they are back.
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away BOOLEAN NOT NULL DEFAULT FALSE;

-- When the current turn runs out (seconds since the epoch), so timers survive a restart.
ALTER TABLE games ADD COLUMN turn_deadline DOUBLE PRECISION;
