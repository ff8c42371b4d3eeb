-- Schema 6: a game numbers its moves from its own counter, never from the rows present.
--
-- games.last_seq: the log number of the game's last accepted move (0: none yet). A save's move is
-- numbered last_seq + 1 and the counter set to it in the same transaction; a snapshot covers the
-- moves up to last_seq. Move-log rows pruned or restored from an older backup no longer renumber
-- the next move: the game read back needs every row from snapshot_seq + 1 to last_seq, and a game
-- missing one is set aside (not silently shortened). Existing games: their highest logged move.

ALTER TABLE games ADD COLUMN last_seq INTEGER NOT NULL DEFAULT 0 CHECK (last_seq >= 0);
UPDATE games SET last_seq = MAX(snapshot_seq, (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE moves.game_id = games.id));
