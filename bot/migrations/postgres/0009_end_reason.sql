-- PostgreSQL version of bot/migrations/0009_end_reason.sql.

ALTER TABLE games ADD COLUMN end_reason TEXT;

DROP INDEX games_runner;
CREATE INDEX games_runner ON games (runner_until) WHERE status IN ('lobby', 'running');
