"""The random clicks of the fuzz test: real components of real messages, and forgeries of them.

A click is made by a random person (seated or not) on a message that person can see (a public
message of either channel, or one of their own hand panels); its custom id is taken from any message
or panel (also another person's) and may be edited: another game, another version, another action,
another panel state, or something malformed. Select values are real options, or forged.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from bot.render.ids import PANEL_ACTIONS, PUBLIC_ACTIONS, parse_custom_id
from tests.discord.play_helpers import components

CARD_CODES = [r + s for r in "A23456789TJQK" for s in "SHDC"] + ["JK"]
FORGED_VALUES = [["ZZ"], ["7H", "7H"], ["AS#9"], [""], ["10H#1"], ["m1"], ["JK"] * 26, ["KS", "KH#2", "2C"]]
FORGED_TARGETS = [["m1"], ["m99:high"], ["m1:5S"], ["m2:low"], ["x"], ["m1:JK"], []]
MALFORMED = [
    "romme:",
    "romme:x:draw",
    "romme:1:draw:",
    "romme:01:join",
    "romme:-1:hand",
    "romme:1:nope",
    "romme:1:p_draw",
    "romme:1:p_draw:x",
    "romme:1:p_draw:3:q.",
    "romme:1:p_draw:3:s.ZZ",
    "romme:1:meld:3:s." + "AS" * 30,
    "romme:1:select:3:s.AS:extra",
    "romme:99999999999999:join",
    "romme:1:draw\n",
    "romme:1:händ",
    "romme:" + "9" * 95,
]


@dataclass
class Click:
    """One interaction to fire: ``values`` None for a button."""

    custom_id: str
    values: list[str] | None


def ids_of(message: Any) -> list[tuple[str, dict[str, Any]]]:
    """The custom ids of a message's components, with each component."""
    return [(c["custom_id"], c) for c in components(message) if c.get("custom_id")]


def forge(rng: random.Random, custom_id: str, game_ids: list[int], versions: list[int]) -> str:
    """``custom_id`` edited one way or another (or not at all)."""
    roll = rng.random()
    parsed = parse_custom_id(custom_id)
    if roll < 0.3 or parsed is None:
        return custom_id
    if roll < 0.45:
        game = rng.choice([*game_ids, parsed.game_id + 1, 0, 987654])
        return re.sub(r"^romme:\d+", f"romme:{game}", custom_id)
    if roll < 0.6 and parsed.version is not None:
        version = rng.choice([*versions, parsed.version - 1, parsed.version + 1, 0])
        return f"romme:{parsed.game_id}:{parsed.action}:{max(version, 0)}" + (
            f":{parsed.arg}" if parsed.arg is not None else ""
        )
    if roll < 0.72:
        if parsed.version is not None:
            action = rng.choice(PANEL_ACTIONS)
            tail = f":{parsed.version}" + (f":{parsed.arg}" if parsed.arg is not None else "")
        else:
            action = rng.choice([a for a in PUBLIC_ACTIONS if a != "stop_yes"])
            tail = ""
        return f"romme:{parsed.game_id}:{action}{tail}"
    if roll < 0.85 and parsed.version is not None:
        cards = "".join(rng.choice(CARD_CODES) for _ in range(rng.randint(0, 6)))
        arg = f"{rng.choice('sr')}{rng.choice(['', 'l', 'w'])}.{cards}"
        return f"romme:{parsed.game_id}:{parsed.action}:{parsed.version}:{arg}"
    return rng.choice(MALFORMED)


def values_for(rng: random.Random, component: dict[str, Any] | None, custom_id: str) -> list[str] | None:
    """Select values for a select's id: a random subset of its options, or forged ones."""
    parsed = parse_custom_id(custom_id)
    action = parsed.action if parsed is not None else None
    if action not in ("select", "target"):
        # A button: Discord sends a click with the type of the component on the message, and the
        # bot never posts a select under a button's id (discord.py would drop such a click unanswered).
        return None
    options = [o["value"] for o in (component or {}).get("options", [])]
    if options and rng.random() < 0.7:
        return rng.sample(options, rng.randint(0 if action == "select" else 1, min(len(options), 4)))
    return rng.choice(FORGED_TARGETS if action == "target" else FORGED_VALUES)


def random_click(rng: random.Random, sources: list[Any], game_ids: list[int], versions: list[int]) -> Click:
    """A click whose id comes from one of ``sources`` (messages and panels), maybe forged."""
    for _ in range(20):
        found = ids_of(rng.choice(sources))
        if found:
            break
    else:
        return Click(rng.choice(MALFORMED), None)
    custom_id, component = rng.choice(found)
    forged = forge(rng, custom_id, game_ids, versions)
    return Click(forged, values_for(rng, component if forged == custom_id else None, forged))
