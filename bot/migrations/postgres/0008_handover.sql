-- PostgreSQL version of bot/migrations/0008_handover.sql.

ALTER TABLE games ADD COLUMN runner_adopted BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN runner_wanted TEXT;
