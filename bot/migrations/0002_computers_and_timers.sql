-- Computer players, turn timers and away players: what a restart needs to carry on with them.

-- The level of a computer player ('easy', 'normal', 'hard'); NULL for a person.
ALTER TABLE seats ADD COLUMN computer TEXT;
-- Turns in a row that ran out of time, and whether the computer keeps the seat until the
-- player says they are back.
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;

-- When the current turn runs out (seconds since the epoch), so timers survive a restart.
ALTER TABLE games ADD COLUMN turn_deadline REAL;
