-- PostgreSQL schema 2: one lease per shard, so that two bot processes never play the same games.
-- A process holds the shards it runs (bot/service/shards.py) and renews their leases (a heartbeat);
-- a lease whose expires_at has passed belongs to nobody and may be taken over by another process.

CREATE TABLE shard_leases (
    shard_id     integer NOT NULL CHECK (shard_id >= 0),
    shard_count  integer NOT NULL CHECK (shard_count >= 1),
    owner        text    NOT NULL,  -- who holds it: "<host> pid <pid>"
    taken_at     timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (shard_id)
);
