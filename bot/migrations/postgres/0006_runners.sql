-- PostgreSQL version of bot/migrations/0006_runners.sql.

-- A process's random name, and until when (seconds since the epoch) its claim holds.
ALTER TABLE games ADD COLUMN runner TEXT;
ALTER TABLE games ADD COLUMN runner_until DOUBLE PRECISION;

-- Every few seconds each process looks for running games whose runner's lease ran out.
CREATE INDEX games_runner ON games (runner_until) WHERE status = 'running';
