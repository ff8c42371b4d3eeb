"""What a member types cannot become the bot's markup: display names are shown as the words they are.

A display name like ``[Free Nitro](https://example.com)`` must not become a masked link in the
lobby, the table, the last-move lines, the panel, the results or the scores, and one like
``<@&123456789012345678>`` must not become a role mention. Every message and edit the bot sends
allows no ``@everyone`` and no role pings, and the only mention in any content is the table's call
of the person on turn.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import simcord

# The robustness tests' bot (seeded, table edits not merged) and quick settling, for this module only.
from tests.robustness.conftest import bots, fast_settle, simcord_bot  # noqa: F401
from tests.robustness.robust_helpers import tables
from tests.robustness.table_driver import TableDriver

LINK = "[Free Nitro](https://example.com)"
ROLE = "<@&123456789012345678>"
BOLD = "**big** __news__"


def texts_sent(env: simcord.Env) -> list[tuple[dict[str, Any], str]]:
    """Every message body the bot sent (posts, edits, interaction answers), with its drawn text."""
    found = []
    for entry in env.http_requests:
        body = entry.json if isinstance(entry.json, dict) else None
        if body is None or entry.method not in ("POST", "PATCH"):
            continue
        data = body["data"] if isinstance(body.get("data"), dict) else body
        if "embeds" not in data and "content" not in data:
            continue
        found.append(
            (data, "\n".join([data.get("content") or "", *map(embed_text, data.get("embeds") or [])]))
        )
    return found


def embed_text(embed: dict[str, Any]) -> str:
    """Every text of an embed as Discord renders it."""
    parts = [embed.get("title") or "", embed.get("description") or ""]
    parts += [(embed.get("footer") or {}).get("text") or "", (embed.get("author") or {}).get("name") or ""]
    parts += [f"{f.get('name') or ''}\n{f.get('value') or ''}" for f in embed.get("fields") or []]
    return "\n".join(parts)


@pytest.mark.slow
async def test_names_are_shown_as_words_and_nobody_is_pinged_by_a_name(simcord_env: simcord.Env) -> None:
    # R19 is untouched: the panel is still the only place a hand shows; this is about names only.
    env = simcord_env
    guild = env.create_guild("Cards")
    channel = guild.create_text_channel("romme")
    ada = guild.add_member(env.create_user("ada"), nick=BOLD)
    nitro = guild.add_member(env.create_user("nitro"), nick=LINK)
    role = guild.add_member(env.create_user("role"), nick=ROLE)
    lobby = await ada.slash(channel, "romme start", rounds=1, opening=0)
    assert lobby.response is not None
    await nitro.click(lobby.response, label="Join")
    await role.click(lobby.response, label="Join")
    await ada.click(lobby.response, label="Start")
    driver = TableDriver(env, channel, {p.id: p for p in (ada, nitro, role)})
    game = await driver.play_to_end()
    assert not game.running
    await ada.slash(channel, "romme score")
    await ada.slash(channel, "romme score", user=nitro)
    await ada.slash(channel, "romme score", scope="server")
    sent = texts_sent(env)
    assert sent
    joined = "\n".join(text for _, text in sent)
    assert "Free Nitro" in joined and "big" in joined  # the names are shown…
    # A code block shows its text literally (no markdown, no mentions): names go in as typed there.
    joined = re.sub(r"```.*?```", "", joined, flags=re.S)
    # …but never as markup: the masked link's bracket, the bold and underline marks are escaped,
    # and the role mention is broken by a zero-width space.
    assert re.search(r"(?<!\\)\[Free Nitro\]", joined) is None, "a name became a masked link"
    assert re.search(r"(?<!\\)\*\*big", joined) is None, "a name became bold"
    assert ROLE not in joined, "a name became a role mention"
    people = {ada.id, nitro.id, role.id}
    for data, _ in sent:
        allowed = data.get("allowed_mentions")
        if allowed is not None:
            assert "everyone" not in allowed.get("parse", []) and "roles" not in allowed.get("parse", [])
            assert not allowed.get("roles")
        # The only mention in any content is a call of one of the players on turn.
        for mention in re.findall(r"<@[!&]?(\d+)>", data.get("content") or ""):
            assert int(mention) in people, mention
    assert tables(env).get(game.id).seats[1].name == LINK  # the stored name is what the member typed
