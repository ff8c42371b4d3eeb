-- PostgreSQL schema 6: ratings, seasons and profiles (issue 27).
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

-- A rated match in one statement (one round trip, its own transaction), as romme_save is for a
-- save: the rated match's row (nothing else when the game is rated already: returns false), each
-- person's history row (p_changes: a JSON array of rating_history's columns but game_id, guild_id,
-- season and ended_at) and season rating (p_ratings: a JSON array of {user_id, mu, sigma, ordinal,
-- matches, wins}, each replacing the person's row of the season). JSON numbers are read as double
-- precision exactly as Python wrote them (the shortest text that gives the same float back).
-- Its COMMIT does not wait for the write-ahead log's flush (synchronous_commit off for this
-- transaction alone): a rating is derived data, and the match it comes from was saved durably
-- before it; a crash in the next fraction of a second may lose the rating, never half of it, and
-- `romme-bot ratings --recompute` rates that match again from its game. Measured: 2.6 ms a rating
-- with the flush, 0.4 ms without, on the bench machine's disk (bench/ratings.py).
CREATE FUNCTION romme_rate(
    p_game bigint,
    p_guild bigint,
    p_season bigint,
    p_ended timestamptz,
    p_seats json,
    p_changes json,
    p_ratings json
) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    INSERT INTO rated_matches (game_id, guild_id, season, ended_at, seats)
    VALUES (p_game, p_guild, p_season, p_ended, p_seats)
    ON CONFLICT (game_id) DO NOTHING;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO rating_history (game_id, user_id, guild_id, season, ended_at, place, seats, won, left_early,
        mu_before, sigma_before, mu, sigma, points, rounds, rounds_out, hand_rommes, best_round, beaten)
    SELECT p_game, c.user_id, p_guild, p_season, p_ended, c.place, c.seats, c.won, c.left_early,
        c.mu_before, c.sigma_before, c.mu, c.sigma, c.points, c.rounds, c.rounds_out, c.hand_rommes,
        c.best_round, c.beaten
    FROM json_to_recordset(p_changes) AS c(user_id bigint, place bigint, seats bigint, won bigint,
        left_early bigint, mu_before double precision, sigma_before double precision, mu double precision,
        sigma double precision, points bigint, rounds bigint, rounds_out bigint, hand_rommes bigint,
        best_round bigint, beaten text);
    INSERT INTO ratings AS old (guild_id, season, user_id, mu, sigma, ordinal, matches, wins)
    SELECT p_guild, p_season, r.user_id, r.mu, r.sigma, r.ordinal, r.matches, r.wins
    FROM json_to_recordset(p_ratings) AS r(user_id bigint, mu double precision, sigma double precision,
        ordinal double precision, matches bigint, wins bigint)
    ON CONFLICT (guild_id, season, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
        ordinal = excluded.ordinal, matches = excluded.matches, wins = excluded.wins;
    RETURN true;
END;
$$;
