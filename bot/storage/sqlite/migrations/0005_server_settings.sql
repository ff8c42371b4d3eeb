-- Schema 5: a server's defaults (/romme settings) and a member's preferences (/romme preferences).
-- Each is one JSON object, as the service writes it (bot/service/settings.py reads it, keeping
-- what it knows and dropping what it no longer does); a missing row is "every default".

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL CHECK (json_valid(settings)),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE member_preferences (
    user_id     INTEGER PRIMARY KEY,
    preferences TEXT NOT NULL CHECK (json_valid(preferences)),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
