-- PostgreSQL schema 4: ratings, seasons and profiles (issue 27).
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
    guild_id   bigint  NOT NULL,
    number     bigint  NOT NULL CHECK (number >= 1),
    started_at timestamptz NOT NULL,
    started_by bigint,  -- NULL: started by the calendar
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE rated_matches (
    game_id   bigint PRIMARY KEY,
    guild_id  bigint  NOT NULL,
    season    bigint  NOT NULL,
    ended_at  timestamptz NOT NULL,
    seats     json    NOT NULL
);
CREATE INDEX rated_matches_by_guild ON rated_matches (guild_id, ended_at, game_id);

CREATE TABLE rating_history (
    game_id      bigint  NOT NULL,
    user_id      bigint  NOT NULL,
    guild_id     bigint  NOT NULL,
    season       bigint  NOT NULL,
    ended_at     timestamptz NOT NULL,
    place        bigint  NOT NULL,
    seats        bigint  NOT NULL,
    won          bigint  NOT NULL CHECK (won IN (0, 1)),
    left_early   bigint  NOT NULL CHECK (left_early IN (0, 1)),
    mu_before    double precision NOT NULL,
    sigma_before double precision NOT NULL,
    mu           double precision NOT NULL,
    sigma        double precision NOT NULL,
    points       bigint  NOT NULL,
    rounds       bigint  NOT NULL,
    rounds_out   bigint  NOT NULL,
    hand_rommes  bigint  NOT NULL,
    best_round   bigint,
    beaten       text    NOT NULL,  -- the computer levels placed below the person, comma-separated
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_history_by_person ON rating_history (guild_id, user_id, ended_at);

CREATE TABLE ratings (
    guild_id bigint  NOT NULL,
    season   bigint  NOT NULL,
    user_id  bigint  NOT NULL,
    mu       double precision NOT NULL,
    sigma    double precision NOT NULL,
    ordinal  double precision NOT NULL,
    matches  bigint  NOT NULL,
    wins     bigint  NOT NULL,
    PRIMARY KEY (guild_id, season, user_id)
);
CREATE INDEX ratings_by_user ON ratings (guild_id, user_id, season);
CREATE INDEX ratings_board ON ratings (guild_id, season, ordinal DESC, user_id);
