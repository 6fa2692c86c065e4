-- What each game has shown in its channel, so that what a crash or a failed request cut off is
-- posted after a restart, and only once.

-- How many rounds' score pads are posted (rounds counted in the order played). NULL for the games
-- of before this column, which are taken to have shown theirs.
ALTER TABLE games ADD COLUMN pads_shown INTEGER;
-- The message that shows how the game ended (the final standings, or the closed table of a game
-- stopped early); NULL while it is owed. Games that ended before this column get 0: shown.
ALTER TABLE games ADD COLUMN final_message_id INTEGER;
UPDATE games SET final_message_id = 0 WHERE status IN ('finished', 'stopped');

-- Start-up looks for the games whose ending is owed.
CREATE INDEX games_owed ON games (status) WHERE status IN ('finished', 'stopped') AND final_message_id IS NULL;
