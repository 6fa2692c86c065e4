-- Seasons: each server's ranked ladder with a beginning and an end (bot/manager/_seasons.py,
-- docs/seasons.md), and what /stats shows for a season and for all time: best game, current
-- streak, head-to-head. Like player_stats, every figure is a running total updated when a game
-- ends, so /leaderboard and /stats read a few indexed rows on a server with a million games.

-- A server's season length and the channel where a season's end is announced. No row: no seasons.
CREATE TABLE season_settings (
    guild_id   INTEGER PRIMARY KEY,
    length     TEXT NOT NULL CHECK (length IN ('none', 'monthly', 'quarterly')),
    channel_id INTEGER,
    updated_at REAL NOT NULL
);

CREATE TABLE seasons (
    guild_id        INTEGER NOT NULL,
    number          INTEGER NOT NULL,  -- 1, 2, 3 … on each server
    started_at      REAL NOT NULL,     -- seconds since the epoch, on the game clock (bot/clock.py)
    ends_at         REAL,              -- when it is due to end; NULL: when an admin ends it
    ended_at        REAL,              -- NULL while it runs
    games           INTEGER NOT NULL DEFAULT 0,  -- the games that finished in it
    -- Its end as an event: the channel it is announced in (fixed when it ends), and the message
    -- that announced it: NULL while owed, 0 when nothing is (no channel, or no ranked game).
    channel_id      INTEGER,
    announced_id    INTEGER,
    -- The process posting the announcement, and until when (real time) its claim holds.
    announcer       TEXT,
    announcer_until REAL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

-- At most one season runs on a server; every few seconds each process looks for the seasons due to
-- end, and for the ends still to announce.
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE INDEX seasons_due ON seasons (ends_at) WHERE ended_at IS NULL;
CREATE INDEX seasons_owed ON seasons (guild_id, number) WHERE ended_at IS NOT NULL AND announced_id IS NULL;

-- A season's ranking: only games with a person in every seat count, rated from the player's
-- rating of their last season carried over halfway back to a newcomer's (bot/ratings.py).
CREATE TABLE season_standings (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    total_score INTEGER NOT NULL,
    rounds      INTEGER NOT NULL,
    exact       INTEGER NOT NULL,
    avg_score   REAL NOT NULL,
    exact_rate  REAL NOT NULL,
    mu          REAL NOT NULL,
    sigma       REAL NOT NULL,
    rating      REAL NOT NULL,  -- mu - 3 sigma, as on the all-time leaderboard
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;

CREATE INDEX season_standings_by_rating ON season_standings (guild_id, season, rating DESC);
CREATE INDEX season_standings_by_wins ON season_standings (guild_id, season, wins DESC);
CREATE INDEX season_standings_by_avg_score ON season_standings (guild_id, season, avg_score DESC);
CREATE INDEX season_standings_by_exact_rate ON season_standings (guild_id, season, exact_rate DESC);
-- A player's last season with a rating, for the carry-over.
CREATE INDEX season_standings_by_player ON season_standings (guild_id, user_id, season);

-- A player's own figures in a season: every game they finished, computer players or not.
CREATE TABLE season_stats (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    total_score INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    best_game   TEXT NOT NULL,     -- the game of the best score (the first, on a tie)
    rounds      INTEGER NOT NULL,
    exact       INTEGER NOT NULL,
    streak      INTEGER NOT NULL,  -- n > 0: the last n games won; n < 0: the last -n not won
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;

-- The same two figures for all time, beside the totals player_stats already keeps (filled in from
-- the finished games by the backend, in this migration's transaction: base.HISTORY_FILLED).
ALTER TABLE player_stats ADD COLUMN best_game TEXT;
ALTER TABLE player_stats ADD COLUMN streak INTEGER NOT NULL DEFAULT 0;

-- Head-to-head: every pair of people who finished a game together, the lower user id first; season
-- 0 is all time.
CREATE TABLE rivals (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    user_a      INTEGER NOT NULL,
    user_b      INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    a_ahead     INTEGER NOT NULL,  -- games user_a finished above user_b
    b_ahead     INTEGER NOT NULL,
    a_wins      INTEGER NOT NULL,  -- games of the two that user_a won
    b_wins      INTEGER NOT NULL,
    a_points    INTEGER NOT NULL,  -- user_a's points in those games
    b_points    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, user_a, user_b)
) WITHOUT ROWID;
