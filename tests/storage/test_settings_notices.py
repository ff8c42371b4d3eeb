"""Issue 35, point 7: a server's settings and a member's preferences saved through one storage are
heard by every other storage on the same PostgreSQL database as the save commits
(:meth:`~bot.storage.interface.Database.on_settings_changed`: ``NOTIFY`` in the save's own
transaction), within a second; a lost listening connection is connected again, and its listeners
hear that anything may have changed. On SQLite (one process per file) nothing is ever heard.

Two storages on one database are what two bot processes hold: their own pool and their own
listening connection each. Nothing is replaced; the waits are on what is heard, with a deadline.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from bot.service.settings import MemberPreferences, SettingsBook
from bot.storage.interface import Database, SettingsChange, open_database
from bot.storage.postgres import PostgresStorage
from tests.conftest import raw_sql
from tests.storage.conftest import TIMEOUT, until
from tests.storage.pg_proxy import RoundTrips

HEARD_WITHIN = 1.0
"""Seconds within which another process hears of a save (the issue's promise)."""


class Ear:
    """What one storage hears, in order; :meth:`next` waits for the next change (at most ``within``)."""

    def __init__(self, storage: Database) -> None:
        self.heard: asyncio.Queue[SettingsChange] = asyncio.Queue()
        storage.on_settings_changed(self.heard.put_nowait)

    async def next(self, within: float = HEARD_WITHIN) -> SettingsChange:
        async with asyncio.timeout(within):
            return await self.heard.get()


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[PostgresStorage, PostgresStorage]]:
    """Two storages on one database, as two bot processes hold them."""
    first = await PostgresStorage.open(postgres_url)
    second = await PostgresStorage.open(postgres_url)
    yield first, second
    await first.close()
    await second.close()


async def test_a_save_of_server_settings_is_heard_by_the_other_storage_within_a_second(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, second = two
    ear = Ear(second)
    await first.save_guild_settings(41, {"threads": True})
    assert await ear.next() == SettingsChange("server", 41)
    # Heard as it committed: a read made on hearing sees the save.
    assert await second.guild_settings(41) == {"threads": True}
    await first.save_member_preferences(7, {"cards": "text"})
    assert await ear.next() == SettingsChange("member", 7)
    assert await second.member_preferences(7) == {"cards": "text"}
    assert ear.heard.empty()


async def test_a_storage_hears_its_own_saves_and_every_listener_in_order(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, _ = two
    order: list[str] = []
    first.on_settings_changed(lambda change: order.append("one"))
    ear = Ear(first)  # added second: called second
    await first.save_member_preferences(8, {})
    assert await ear.next() == SettingsChange("member", 8)
    assert order == ["one"]


async def test_a_save_and_its_notice_are_still_one_round_trip(postgres_url: str) -> None:
    async with RoundTrips(postgres_url) as proxy:
        storage = await PostgresStorage.open(proxy.url)
        try:
            ear = Ear(storage)
            await storage.save_guild_settings(5, {})  # the first time, its statement is prepared
            assert await ear.next() == SettingsChange("server", 5)
            before = proxy.count
            await storage.save_guild_settings(5, {"jokers": 6})
            assert proxy.count - before == 1
            assert await ear.next() == SettingsChange("server", 5)
        finally:
            await storage.close()


async def test_a_refused_save_sends_no_notice(two: tuple[PostgresStorage, PostgresStorage]) -> None:
    first, second = two
    ear = Ear(second)
    with pytest.raises(TypeError):
        await first.save_guild_settings(6, {"bad": object()})
    await first.save_guild_settings(6, {})  # the next one is heard, and is the only one
    assert await ear.next() == SettingsChange("server", 6)
    assert ear.heard.empty()


async def test_a_lost_listening_connection_comes_back_and_says_anything_may_have_changed(
    two: tuple[PostgresStorage, PostgresStorage], postgres_url: str
) -> None:
    first, second = two
    ear = Ear(second)
    pid = second.notices.backend_pid
    assert pid is not None
    await raw_sql(postgres_url, f"SELECT pg_terminate_backend({pid})")  # the server cuts it
    assert await ear.next(TIMEOUT) == SettingsChange(None)  # lost: what follows may be missed
    assert await ear.next(TIMEOUT) == SettingsChange(None)  # back: read again what was kept
    assert second.notices.listening and second.notices.backend_pid not in (None, pid)
    await first.save_member_preferences(9, {"sort": "rank"})
    assert await ear.next() == SettingsChange("member", 9)


async def test_another_schemas_saves_are_not_heard(postgres_database: str, postgres_url: str) -> None:
    await raw_sql(postgres_database, "CREATE SCHEMA IF NOT EXISTS notices_elsewhere")
    elsewhere = await PostgresStorage.open(f"{postgres_database}?search_path=notices_elsewhere")
    here = await PostgresStorage.open(postgres_url)
    try:
        ear = Ear(here)
        await elsewhere.save_guild_settings(3, {})  # same database, other tables: not ours
        await here.save_guild_settings(4, {})
        assert await ear.next() == SettingsChange("server", 4)
        assert ear.heard.empty()
    finally:
        await elsewhere.close()
        await here.close()


async def test_a_closed_storage_closes_its_listening_connection(postgres_url: str) -> None:
    storage = await PostgresStorage.open(postgres_url)
    pid = storage.notices.backend_pid
    await storage.close()
    assert not storage.notices.listening
    db = await asyncpg.connect(postgres_url)
    try:
        assert await db.fetch("SELECT 1 FROM pg_stat_activity WHERE pid = $1", pid) == []
    finally:
        await db.close()


async def test_on_sqlite_nothing_is_heard(database_path: Path) -> None:
    storage = await open_database(database_path)
    try:
        heard: list[SettingsChange] = []
        storage.on_settings_changed(heard.append)
        await storage.save_guild_settings(1, {"threads": True})
        await storage.save_member_preferences(2, {"cards": "text"})
        await asyncio.sleep(0)
        assert heard == []
    finally:
        await storage.close()


# ---------------------------------------------------------------------- the book over two storages


async def test_a_book_reads_a_member_again_once_another_process_saved_them(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, second = two
    here, there = SettingsBook(first), SettingsBook(second)
    assert (await there.known(7)).cards == "faces"  # kept in the other process's memory
    ear = Ear(second)  # after the book's listener: once this hears, the book has
    await here.save_member(7, MemberPreferences(cards="text", mention=False))
    assert await ear.next() == SettingsChange("member", 7)
    assert (await there.known(7)).cards == "text"


async def test_a_book_keeps_the_panels_preferences_up_to_date_without_a_click(
    two: tuple[PostgresStorage, PostgresStorage],
) -> None:
    first, second = two
    here, there = SettingsBook(first), SettingsBook(second)
    await there.known(7)
    await here.save_member(7, MemberPreferences(cards="text", mention=False))
    # Read again in the background: the panels that process draws (cached) follow, and its table
    # stops mentioning the member, with no click of theirs there.
    async with asyncio.timeout(HEARD_WITHIN):
        await until(lambda: there.cached(7).cards == "text")
    assert 7 in there.quiet


async def test_a_book_reads_every_member_again_after_notices_were_lost(
    two: tuple[PostgresStorage, PostgresStorage], postgres_url: str
) -> None:
    first, second = two
    there = SettingsBook(second)
    assert (await there.known(7)).sort == "suit"
    ear = Ear(second)
    pid = second.notices.backend_pid
    await raw_sql(postgres_url, f"SELECT pg_terminate_backend({pid})")
    assert await ear.next(TIMEOUT) == SettingsChange(None)
    # Saved while nobody listened in the other process: never heard there.
    await first.save_member_preferences(7, {"sort": "rank"})
    assert await ear.next(TIMEOUT) == SettingsChange(None)  # back
    assert (await there.known(7)).sort == "rank"
