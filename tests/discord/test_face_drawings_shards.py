"""Two processes of one application with different drawings of the card faces (issue 25, point 6):
during a rolling update, a process started with new drawings must not delete the faces a process
still running shows. A sharded process (``SHARD_COUNT``: others may share the application) uploads
its own drawing and deletes none of another's; an unsharded one tidies them (``test_emojis``)."""

from __future__ import annotations

import pytest
import simcord

from bot.client import RommeBot
from bot.render.faces import parse_face_name
from tests.robustness.robust_helpers import make_bot


@pytest.fixture
def simcord_bot(postgres_url: str) -> RommeBot:
    return make_bot(postgres_url, shard_count=2, shard_ids="0")


async def test_a_process_with_another_drawing_deletes_no_face_the_other_shows(
    simcord_env: simcord.Env, simcord_bot: RommeBot, postgres_url: str
) -> None:
    env = simcord_env
    backend = env.backend
    sevens = [e for e in backend.application_emojis.values() if (parse_face_name(e.name) or ("",))[0] == "7H"]
    (first,) = sevens
    # The other process (still running) shows its drawing of the 7♥: another digest.
    first.name = "romme_7h_000000"
    await simcord_bot.close()  # a rolling update: this process is replaced by one with new drawings
    bot = make_bot(postgres_url, shard_count=2, shard_ids="0")
    try:
        await env.restart_bot(bot)
        assert first.id in backend.application_emojis  # never deleted: the other process shows it
        assert bot.card_faces is not None and bot.card_faces["7H"].id != first.id  # its own, uploaded
        assert bot.card_faces["7H"].id in backend.application_emojis
    finally:
        await bot.close()
