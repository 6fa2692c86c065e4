-- Why a game ended before its last round, for the games that did: 'stopped' (by its host or a
-- moderator), 'abandoned' (every person away too long), 'channel_gone' (its channel or thread was
-- deleted) or 'server_gone' (the bot was removed from its server). Restored with the game, so that a
-- restart shows the end it had (or, for a place that is gone, tells its players and posts nothing).
ALTER TABLE games ADD COLUMN end_reason TEXT;

-- Lobbies are claimed by the process that holds them, as running games are (0006, 0008), so that a
-- dead process's lobbies are adopted too: the search for lapsed claims covers both.
DROP INDEX games_runner;
CREATE INDEX games_runner ON games (runner_until) WHERE status IN ('lobby', 'running');
