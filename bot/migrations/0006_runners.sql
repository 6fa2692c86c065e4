-- Which process runs each game (its timers, its computer players, its messages), under a lease the
-- process renews while it lives. When the lease runs out (the process died), any other process takes
-- the game over; the process of the game's server takes it back when it is up again.

-- A process's random name, and until when (seconds since the epoch) its claim holds.
ALTER TABLE games ADD COLUMN runner TEXT;
ALTER TABLE games ADD COLUMN runner_until REAL;

-- Every few seconds each process looks for running games whose runner's lease ran out.
CREATE INDEX games_runner ON games (runner_until) WHERE status = 'running';
