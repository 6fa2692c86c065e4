-- A game goes from one process to another only once the first has stopped showing it (a handover),
-- so that two processes never show the same game at once: an older render could overwrite a newer.

-- Whether the process that runs the game adopted it (its own process had died): the process of the
-- game's server asks for such a game back, never for one that another process of its server runs.
ALTER TABLE games ADD COLUMN runner_adopted INTEGER NOT NULL DEFAULT 0;
-- The process that asked for the game back; the runner hands the game over at its next beat.
ALTER TABLE games ADD COLUMN runner_wanted TEXT;
