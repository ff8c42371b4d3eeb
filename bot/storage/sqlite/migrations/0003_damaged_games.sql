-- Schema 3: a game whose snapshot this code cannot read is set aside, not retried at every start.
-- Such a row gets status 'cancelled' (so it no longer holds its channel: see games_open_in_channel)
-- and, here, what was wrong with it, in one line. Its snapshot is kept as it was, for whoever
-- repairs it. NULL: the game is sound.

ALTER TABLE games ADD COLUMN damaged TEXT;
