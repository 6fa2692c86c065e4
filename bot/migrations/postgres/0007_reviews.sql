-- PostgreSQL version of bot/migrations/0007_reviews.sql.

CREATE TABLE reviews (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    review     TEXT NOT NULL,  -- the review as JSON (bot.review.Review.to_json)
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- /wizard review finds a person's last finished game on a server.
CREATE INDEX seats_by_user ON seats (user_id, game_id);
