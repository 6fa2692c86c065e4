-- PostgreSQL version of bot/migrations/0005_ratings_with_ties.sql.

-- The ratings again, from the game history, with the model that ranks ties correctly (bot/ratings.py).
-- This clears them; in the same transaction the backend then replays every finished game between
-- people and stores the ratings that gives (bot/storage/base.py, `replayed_ratings`).
UPDATE player_stats SET mu = NULL, sigma = NULL, rating = NULL;
