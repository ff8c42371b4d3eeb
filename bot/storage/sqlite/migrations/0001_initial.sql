-- Schema 1: games with their engine snapshot, the move log, round scores and player statistics.
-- Times are UTC ISO-8601 text, written by SQLite so every row of one transaction agrees.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    table_message_id INTEGER,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    -- The table service's JSON snapshot; it carries its own format "version" key.
    snapshot         TEXT    NOT NULL CHECK (json_valid(snapshot)),
    -- Bumped by every save: a save that expected an older version is refused (optimistic locking).
    version          INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at       TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- One game per channel while it is not over; the database, not a check in Python, closes the race
-- between two /romme start at the same moment.
CREATE UNIQUE INDEX games_open_in_channel ON games (channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_by_guild ON games (guild_id, status);

-- Append-only: one row per accepted move, written in the same transaction as the snapshot.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    user_id    INTEGER,  -- NULL: a computer player made the move
    move       TEXT    NOT NULL CHECK (json_valid(move)),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER moves_append_only_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

CREATE TABLE round_scores (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_no INTEGER NOT NULL CHECK (round_no >= 1),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER,  -- NULL: a computer seat
    melded   INTEGER NOT NULL,
    in_hand  INTEGER NOT NULL,
    score    INTEGER NOT NULL,
    PRIMARY KEY (game_id, round_no, seat)
) WITHOUT ROWID;

-- What each person got from one finished match; its key makes recording a match twice a no-op.
CREATE TABLE match_results (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    points     INTEGER NOT NULL,
    won        INTEGER NOT NULL CHECK (won IN (0, 1)),
    best_round INTEGER,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Per server and person, the sums over match_results, kept up to date for the leaderboard.
CREATE TABLE player_stats (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    matches_played INTEGER NOT NULL DEFAULT 0,
    matches_won    INTEGER NOT NULL DEFAULT 0,
    points         INTEGER NOT NULL DEFAULT 0,
    best_round     INTEGER,  -- NULL until a round score is known
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
