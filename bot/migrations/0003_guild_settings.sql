-- Each server's defaults for new games and where games may be started (/wizard settings).
-- A server without a row uses the built-in defaults; a change never touches games already open.

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    options        TEXT NOT NULL,               -- the engine's Options as JSON: the default house rules
    turn_timer     REAL NOT NULL,               -- seconds
    computer_level TEXT NOT NULL,               -- 'easy', 'normal' or 'hard'
    language       TEXT,                        -- a catalog language ('cs') for channel messages; NULL: the server's locale
    channels       TEXT NOT NULL DEFAULT '[]',  -- JSON list of the channel ids where games may start; empty: any channel
    updated_at     REAL NOT NULL
);
