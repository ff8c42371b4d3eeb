-- Schema 2: the outbox of the round and match ends owed to a channel.
-- A row is written in the SAME transaction as the move that ends the round, so an ended round is
-- never without its announcement, and stays until the publisher (or the click's answer) has put
-- the message in the channel: delivered_at and message_id are set then. One row per game and round:
-- writing it twice (a retried save) keeps the first.

CREATE TABLE announcements (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_no     INTEGER NOT NULL CHECK (round_no >= 1),
    kind         TEXT    NOT NULL CHECK (kind IN ('round_end', 'match_end')),
    -- What the message shows, as the storage's caller gave it (the game as it was at the round's end).
    payload      TEXT    NOT NULL CHECK (json_valid(payload)),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    delivered_at TEXT,
    message_id   INTEGER,
    PRIMARY KEY (game_id, round_no)
) WITHOUT ROWID;

-- What a starting bot asks for: the announcements still owed.
CREATE INDEX announcements_owed ON announcements (game_id, round_no) WHERE delivered_at IS NULL;
