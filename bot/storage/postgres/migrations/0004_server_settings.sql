-- PostgreSQL schema 4: a server's defaults (/romme settings) and a member's preferences
-- (/romme preferences). Each is one JSON object as text (read the same way on both backends), as
-- the service writes it; a missing row is "every default".

CREATE TABLE guild_settings (
    guild_id   bigint PRIMARY KEY,
    settings   text NOT NULL CHECK (settings::jsonb IS NOT NULL),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE member_preferences (
    user_id     bigint PRIMARY KEY,
    preferences text NOT NULL CHECK (preferences::jsonb IS NOT NULL),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
