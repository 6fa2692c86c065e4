-- The ratings again, from the game history, with the model that ranks ties correctly (bot/ratings.py:
-- openskill's Plackett-Luce, used before, rated a player placed behind two tied players above them).
-- This clears them; in the same transaction the backend then replays every finished game between
-- people, in the order they finished, and stores the ratings that gives (bot/storage/base.py,
-- `replayed_ratings`).
UPDATE player_stats SET mu = NULL, sigma = NULL, rating = NULL;
