-- The slash commands as the bot last published them to Discord, so that a start publishes them
-- only when they changed (Discord allows 200 new commands a day per server, and a global sync
-- reaches every server): one digest per application and place.

CREATE TABLE published_commands (
    application_id INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,  -- the server they were published to (DEV_GUILD_ID); 0: globally
    digest         TEXT NOT NULL,     -- SHA-256 of what was sent, as canonical JSON
    published_at   REAL NOT NULL,
    PRIMARY KEY (application_id, guild_id)
);
