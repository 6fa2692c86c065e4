-- Each player's open turn ping (the short DM of `ping.text`): its message and the turn it is for,
-- so that a process that restarts, or takes the game over, takes it down once its move is made
-- instead of leaving a "your move" that is no longer true. Its DM channel is the seat's.

ALTER TABLE seats ADD COLUMN ping_message_id INTEGER;
ALTER TABLE seats ADD COLUMN ping_turn TEXT;
