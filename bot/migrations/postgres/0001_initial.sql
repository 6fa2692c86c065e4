-- PostgreSQL version of bot/migrations/0001_initial.sql: the same tables, in PostgreSQL's types.
-- Discord ids are BIGINT, times (seconds since the epoch) DOUBLE PRECISION, flags BOOLEAN.

CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    host_id          BIGINT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'stopped', 'closed')),
    seed             BIGINT,
    options          TEXT NOT NULL,  -- the engine's Options as JSON
    turn_timer       DOUBLE PRECISION NOT NULL,
    lobby_message_id BIGINT,
    table_message_id BIGINT,
    table_round      INTEGER,  -- the round the table message shows
    created_at       DOUBLE PRECISION NOT NULL,
    updated_at       DOUBLE PRECISION NOT NULL,
    finished_at      DOUBLE PRECISION
);

-- Start-up looks for the lobbies and games to restore.
CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'running');

CREATE TABLE seats (
    game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         BIGINT NOT NULL,
    name            TEXT NOT NULL,
    dm_channel_id   BIGINT,
    hand_message_id BIGINT,
    hand_round      INTEGER,  -- the round the hand message shows
    dm_closed       BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (game_id, seat)
);

-- The primary key makes an action impossible to record twice.
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,  -- the engine's action JSON
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE results (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    score   INTEGER NOT NULL,
    place   INTEGER NOT NULL,
    won     BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE round_results (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round   INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    bid     INTEGER NOT NULL,
    tricks  INTEGER NOT NULL,
    points  INTEGER NOT NULL,
    PRIMARY KEY (game_id, round, seat)
);

-- Running totals per server and player, updated when a game ends, so that /leaderboard and
-- /stats read a few indexed rows instead of scanning every game.
CREATE TABLE player_stats (
    guild_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    total_score BIGINT NOT NULL DEFAULT 0,
    best_score  INTEGER,
    rounds      INTEGER NOT NULL DEFAULT 0,
    exact       INTEGER NOT NULL DEFAULT 0,
    "over"      INTEGER NOT NULL DEFAULT 0,  -- rounds with more tricks than bid
    under       INTEGER NOT NULL DEFAULT 0,
    mu          DOUBLE PRECISION,  -- openskill rating; NULL until a rated game
    sigma       DOUBLE PRECISION,
    rating      DOUBLE PRECISION,  -- mu - 3 sigma, the conservative figure shown and sorted by
    avg_score   DOUBLE PRECISION NOT NULL DEFAULT 0,
    exact_rate  DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX player_stats_by_rating ON player_stats (guild_id, rating DESC);
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, wins DESC);
CREATE INDEX player_stats_by_avg_score ON player_stats (guild_id, avg_score DESC);
CREATE INDEX player_stats_by_exact_rate ON player_stats (guild_id, exact_rate DESC);

CREATE TABLE player_hand_sizes (
    guild_id  BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    hand_size INTEGER NOT NULL,
    rounds    INTEGER NOT NULL DEFAULT 0,
    exact     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id, hand_size)
);
