-- PostgreSQL version of bot/migrations/0011_published_commands.sql.

CREATE TABLE published_commands (
    application_id BIGINT NOT NULL,
    guild_id       BIGINT NOT NULL,   -- the server they were published to (DEV_GUILD_ID); 0: globally
    digest         TEXT NOT NULL,     -- SHA-256 of what was sent, as canonical JSON
    published_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (application_id, guild_id)
);
