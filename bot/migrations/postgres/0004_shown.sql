-- PostgreSQL version of bot/migrations/0004_shown.sql.

-- How many rounds' score pads are posted (rounds counted in the order played). NULL for the games
-- of before this column, which are taken to have shown theirs.
ALTER TABLE games ADD COLUMN pads_shown INTEGER;
-- The message of the final standings; NULL while they are owed. Games finished before this column
-- get 0: shown.
ALTER TABLE games ADD COLUMN final_message_id BIGINT;
UPDATE games SET final_message_id = 0 WHERE status = 'finished';

-- Start-up looks for the finished games whose standings are owed.
CREATE INDEX games_owed ON games (status) WHERE status = 'finished' AND final_message_id IS NULL;
