-- The coach's private reviews of finished games (bot/review.py), one per person and game: worked out
-- from the game's actions the first time that person asks, then read from here.

CREATE TABLE reviews (
    game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    review     TEXT NOT NULL,  -- the review as JSON (bot.review.Review.to_json)
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- /wizard review finds a person's last finished game on a server.
CREATE INDEX seats_by_user ON seats (user_id, game_id);
