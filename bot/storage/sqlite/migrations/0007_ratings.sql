-- Schema 7: ratings, seasons and profiles (issue 27).
--
-- rated_matches: each finished match as it was rated, one row per game: its server, its season, when
-- it ended, and its seats (a JSON array of {seat, user_id, level, place, left, counts, points, rounds,
-- rounds_out, hand_rommes, best_round}): the stored result every rating is recomputed from
-- (`romme-bot ratings --recompute`). Written in the same transaction as the ratings it moved; its key
-- makes rating a match twice a no-op.
-- rating_history: each person's rating before and after each rated match, with what the profile
-- counts (place, points, rounds gone out, Hand-Rommé, computer levels beaten).
-- ratings: each person's rating per server and season (mu, sigma as openskill keeps them; ordinal =
-- mu - 3 sigma, for the leaderboard's order). A past season's rows are its final standings.
-- seasons: a server's seasons, numbered 1, 2, …, each from its start until the next one's.

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 1),
    started_at TEXT    NOT NULL,
    started_by INTEGER,  -- NULL: started by the calendar
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

CREATE TABLE rated_matches (
    game_id   INTEGER PRIMARY KEY,
    guild_id  INTEGER NOT NULL,
    season    INTEGER NOT NULL,
    ended_at  TEXT    NOT NULL,
    seats     TEXT    NOT NULL CHECK (json_valid(seats))
);
CREATE INDEX rated_matches_by_guild ON rated_matches (guild_id, ended_at, game_id);

CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    season       INTEGER NOT NULL,
    ended_at     TEXT    NOT NULL,
    place        INTEGER NOT NULL,
    seats        INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    left_early   INTEGER NOT NULL CHECK (left_early IN (0, 1)),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    points       INTEGER NOT NULL,
    rounds       INTEGER NOT NULL,
    rounds_out   INTEGER NOT NULL,
    hand_rommes  INTEGER NOT NULL,
    best_round   INTEGER,
    beaten       TEXT    NOT NULL,  -- the computer levels placed below the person, comma-separated
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_by_person ON rating_history (guild_id, user_id, ended_at);

CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    matches  INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_by_user ON ratings (guild_id, user_id, season);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal DESC, user_id);
