-- Schema 4: a move is saved as what it is. A save no longer rewrites the game's snapshot every move:
-- the snapshot is written every few moves (and whenever the caller says), and the moves logged
-- after it are replayed onto it when the game is read (by the storage's owner, which knows the
-- rules: see Storage.replay).
--
-- games.snapshot_seq: the log number of the last move the snapshot includes; the moves with a
-- higher seq are the ones to replay. Existing games: their snapshot includes every logged move.
-- moves.state: what else the move changed at the table (a JSON object, as the owner wrote it: for
-- the table service, the snapshot's keys that changed, the match left out, since the move itself
-- rebuilds it); NULL for a move saved together with a snapshot, which needs no replay.

ALTER TABLE games ADD COLUMN snapshot_seq INTEGER NOT NULL DEFAULT 0 CHECK (snapshot_seq >= 0);
UPDATE games SET snapshot_seq = (SELECT COALESCE(MAX(seq), 0) FROM moves WHERE moves.game_id = games.id);

ALTER TABLE moves ADD COLUMN state TEXT CHECK (state IS NULL OR json_valid(state));
