-- PostgreSQL version of bot/migrations/0003_guild_settings.sql.
-- Each server's defaults for new games and where games may be started (/wizard settings).

CREATE TABLE guild_settings (
    guild_id       BIGINT PRIMARY KEY,
    options        TEXT NOT NULL,               -- the engine's Options as JSON: the default house rules
    turn_timer     DOUBLE PRECISION NOT NULL,   -- seconds
    computer_level TEXT NOT NULL,               -- 'easy', 'normal' or 'hard'
    language       TEXT,                        -- a catalog language ('cs') for channel messages; NULL: the server's locale
    channels       TEXT NOT NULL DEFAULT '[]',  -- JSON list of the channel ids where games may start; empty: any channel
    updated_at     DOUBLE PRECISION NOT NULL
);
