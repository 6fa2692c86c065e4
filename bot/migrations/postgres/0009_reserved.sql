-- A placeholder: migration 0009 is reserved for another change being made at the same time (its
-- own file takes this number when it is merged, and this one goes). It changes nothing, so that
-- the numbers run without a gap, as bot/storage/base.py `migrations` requires.
SELECT 1;
