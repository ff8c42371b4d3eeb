-- PostgreSQL schema 7: a save's times are the bot's clock's, not the server's.
--
-- The bot's turns, timers and ratings run on its own clock (a simulated one in the tests and the
-- playground); the times a save wrote were the server's now(), so a match's history, its exported
-- moves and the age HISTORY_DAYS compacts by followed another clock than the game. romme_save
-- takes the time of the change (p_at) and stamps the move, the game's row and the announcements
-- with it. The function of schema 5 (twelve arguments, its times the server's) stays beside it for
-- a process of the previous version still running during an upgrade.

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
    p_fence bigint,
    p_at timestamptz
) RETURNS TABLE (outcome text, version bigint, seq bigint, guild_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_version bigint;
    v_guild bigint;
    v_seq bigint;
BEGIN
    SELECT g.version, g.guild_id, g.last_seq INTO v_version, v_guild, v_seq FROM games g WHERE g.id = p_game FOR UPDATE;
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
    IF p_move IS NOT NULL THEN
        v_seq := v_seq + 1;
        INSERT INTO moves (game_id, seq, seat, user_id, move, state, created_at)
        VALUES (p_game, v_seq, p_seat, p_user, p_move, CASE WHEN p_snapshot IS NULL THEN p_state END, p_at);
    END IF;
    IF p_snapshot IS NOT NULL THEN
        UPDATE games SET snapshot = p_snapshot, status = p_status, version = games.version + 1,
            updated_at = p_at, snapshot_seq = v_seq, last_seq = v_seq
        WHERE id = p_game;
    ELSE
        UPDATE games SET status = p_status, version = games.version + 1, updated_at = p_at, last_seq = v_seq
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
        INSERT INTO announcements (game_id, round_no, kind, payload, created_at)
        SELECT p_game, a.round_no, a.kind, a.payload, p_at
        FROM json_to_recordset(p_announcements) AS a(round_no integer, kind text, payload json)
        ON CONFLICT (game_id, round_no) DO NOTHING;
    END IF;
    RETURN QUERY SELECT 'saved'::text, v_version + 1, CASE WHEN p_move IS NOT NULL THEN v_seq END, v_guild;
END;
$$;
