-- PostgreSQL schema 3: a save is one statement (one round trip, its own transaction), and it is
-- fenced by the shard lease of the process that makes it.
--
-- romme_save does what the client did in five round trips (BEGIN, the row lock and version check,
-- the move-log row, the game's row, COMMIT), with the same guarantees: the game's row is locked
-- (FOR UPDATE) for the version check, nothing is written when it fails, the move and the game's
-- row are one transaction. Called as one statement outside a transaction block, it commits with
-- that statement, before its answer reaches the client.
--
-- Fencing: every take of a shard lease (bot/storage/postgres.py, take_shards) draws a new epoch
-- from shard_lease_epochs, and a take-over deletes the old lease row and inserts a new one. A save
-- that names an epoch first locks its game's lease row (FOR KEY SHARE: the heartbeat's UPDATE does
-- not wait for it, a take-over's DELETE does) and is refused ('fenced', nothing written) unless the
-- lease of the game's shard still carries that epoch: a process that lost its shards cannot write
-- the games another process now plays, and a take-over waits for the saves already under way.

ALTER TABLE shard_leases ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
CREATE SEQUENCE shard_lease_epochs;

-- A finished match's results into match_results (once per person and game) and player_stats;
-- returns how many were new. p_results: a JSON array of {user_id, points, won, best_round}.
CREATE FUNCTION romme_record_match(p_game bigint, p_guild bigint, p_results json) RETURNS integer
LANGUAGE sql AS $$
    WITH new AS (
        INSERT INTO match_results (game_id, user_id, points, won, best_round)
        SELECT p_game, r.user_id, r.points, r.won, r.best_round
        FROM json_to_recordset(p_results) AS r(user_id bigint, points integer, won integer, best_round integer)
        ON CONFLICT (game_id, user_id) DO NOTHING
        RETURNING user_id, points, won, best_round
    ), counted AS (
        INSERT INTO player_stats AS s (guild_id, user_id, matches_played, matches_won, points, best_round)
        SELECT p_guild, user_id, 1, won, points, best_round FROM new
        ON CONFLICT (guild_id, user_id) DO UPDATE SET
            matches_played = s.matches_played + 1,
            matches_won = s.matches_won + excluded.matches_won,
            points = s.points + excluded.points,
            best_round = GREATEST(s.best_round, excluded.best_round)
        RETURNING 1
    )
    SELECT count(*)::integer FROM counted;
$$;

-- One save of a game. p_snapshot NULL: the move is logged with p_state and the snapshot stays;
-- p_move NULL: no move is logged. p_expected NULL: no version check; p_fence NULL: no lease check.
-- outcome: 'saved' (version: the new version, seq: the logged move's number or NULL), 'missing'
-- (no such game), 'conflict' (version: the stored one) or 'fenced' (the lease has another epoch);
-- only 'saved' wrote anything. guild_id: the game's server (of the shard a fenced save lost).
CREATE FUNCTION romme_save(
    p_game bigint,
    p_expected bigint,
    p_snapshot json,
    p_status text,
    p_seat integer,
    p_user bigint,
    p_move json,
    p_state json,
    p_scores json,
    p_results json,
    p_announcements json,
    p_fence bigint
) RETURNS TABLE (outcome text, version bigint, seq bigint, guild_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guild bigint;
    v_seq bigint;
BEGIN
    SELECT g.version, g.guild_id INTO v_version, v_guild FROM games g WHERE g.id = p_game FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT 'missing'::text, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF p_fence IS NOT NULL THEN
        PERFORM 1 FROM shard_leases l
        WHERE l.shard_id = (v_guild >> 22) % l.shard_count AND l.epoch = p_fence
        FOR KEY SHARE;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'fenced'::text, v_version, NULL::bigint, v_guild;
            RETURN;
        END IF;
    END IF;
    IF p_expected IS NOT NULL AND p_expected <> v_version THEN
        RETURN QUERY SELECT 'conflict'::text, v_version, NULL::bigint, v_guild;
        RETURN;
    END IF;
    SELECT COALESCE(max(m.seq), 0) INTO v_seq FROM moves m WHERE m.game_id = p_game;
    IF p_move IS NOT NULL THEN
        v_seq := v_seq + 1;
        INSERT INTO moves (game_id, seq, seat, user_id, move, state)
        VALUES (p_game, v_seq, p_seat, p_user, p_move, CASE WHEN p_snapshot IS NULL THEN p_state END);
    END IF;
    IF p_snapshot IS NOT NULL THEN
        UPDATE games SET snapshot = p_snapshot, status = p_status, version = games.version + 1,
            updated_at = now(), snapshot_seq = v_seq
        WHERE id = p_game;
    ELSE
        UPDATE games SET status = p_status, version = games.version + 1, updated_at = now()
        WHERE id = p_game;
    END IF;
    IF p_scores IS NOT NULL THEN
        INSERT INTO round_scores (game_id, round_no, seat, user_id, melded, in_hand, score)
        SELECT p_game, r.round_no, r.seat, r.user_id, r.melded, r.in_hand, r.score
        FROM json_to_recordset(p_scores)
            AS r(round_no integer, seat integer, user_id bigint, melded integer, in_hand integer, score integer);
    END IF;
    IF p_results IS NOT NULL THEN
        PERFORM romme_record_match(p_game, v_guild, p_results);
    END IF;
    IF p_announcements IS NOT NULL THEN
        INSERT INTO announcements (game_id, round_no, kind, payload)
        SELECT p_game, a.round_no, a.kind, a.payload
        FROM json_to_recordset(p_announcements) AS a(round_no integer, kind text, payload json)
        ON CONFLICT (game_id, round_no) DO NOTHING;
    END IF;
    RETURN QUERY SELECT 'saved'::text, v_version + 1, CASE WHEN p_move IS NOT NULL THEN v_seq END, v_guild;
END;
$$;
