"""Shared fixtures: the real bot on a real database inside SimCord, and the databases themselves.

``simcord_env`` (from SimCord's pytest plugin) starts the bot built by ``simcord_bot`` below:
logged in to a simulated Discord, at READY, its commands synced. Tests act as people through
SimCord's actors (``slash``, ``click``, ``select``); nothing about discord is mocked.

The storage runs on two backends, and the tests whose subject is the database run on both: the
``database`` fixture is an SQLite file (``database_path``) or a PostgreSQL database (``postgres_url``),
and ``storage`` is the bot's storage opened on it. The PostgreSQL server is the one of
``ROMME_TEST_POSTGRES_URL`` (default: ``postgresql://postgres@127.0.0.1:5432/postgres``); each run
creates a database of its own on it (``romme_test_<pid>_<random>``, dropped at the end) and each
test a schema of its own in it. Where no server answers, the PostgreSQL tests are skipped with one
line saying why, except under CI (``CI=true``), where they fail: CI always tests both backends.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import simcord

from bot import create_bot
from bot.client import RommeBot
from bot.storage.interface import Database, open_database
from tests.robustness.robust_helpers import patient_start

POSTGRES_SERVER = os.environ.get("ROMME_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
"""The PostgreSQL server the tests create their database on (a URL naming an existing database)."""

BACKENDS = ("sqlite", "postgres")
"""The storage backends the database tests run on (the ids of the ``database`` fixture)."""

_schemas = itertools.count(1)


SQLITE_ONLY_FIXTURES = frozenset({"db_path"})
"""A test that asks for one of these reads or changes the SQLite file itself: it runs on SQLite only."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL run of a test that works on the SQLite file itself."""
    kept: list[pytest.Item] = []
    left_out: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("database") == "postgres"
        fixtures = set(getattr(item, "fixturenames", ()))
        (left_out if on_postgres and fixtures & SQLITE_ONLY_FIXTURES else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


def in_ci() -> bool:
    """Whether the tests run in CI, where the PostgreSQL backend must be tested, never skipped."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def with_database(url: str, name: str, **query: str) -> str:
    """``url`` naming the database ``name`` instead, with ``query`` as server settings.

    >>> with_database("postgresql://postgres@127.0.0.1:5432/postgres", "x", search_path="t1")
    'postgresql://postgres@127.0.0.1:5432/x?search_path=t1'
    """
    base = url.split("?", 1)[0].rsplit("/", 1)[0]
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    return f"{base}/{name}{suffix}"


async def _admin(url: str, *statements: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url, timeout=10)
    try:
        for statement in statements:
            await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for this test run (its URL), dropped at the end."""
    name = f"romme_test_{os.getpid()}_{secrets.token_hex(4)}"
    try:
        asyncio.run(_admin(POSTGRES_SERVER, f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        line = f"PostgreSQL at {POSTGRES_SERVER} is not usable ({type(exc).__name__}: {reason})"
        if in_ci():
            pytest.fail(f"{line}: CI must test the PostgreSQL backend (see .ci/run)", pytrace=False)
        pytest.skip(f"{line}; set ROMME_TEST_POSTGRES_URL or start PostgreSQL to run these")
    url = with_database(POSTGRES_SERVER, name)
    yield url
    asyncio.run(_admin(POSTGRES_SERVER, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def postgres_url(postgres_database: str) -> str:
    """A PostgreSQL database of the test's own: a new schema in the run's database (its URL sets
    the schema as the search path, so the bot's tables go there)."""
    schema = f"t{next(_schemas)}"
    asyncio.run(_admin(postgres_database, f"CREATE SCHEMA {schema}"))
    return f"{postgres_database}?search_path={schema}"


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    """The bot's database file for one test (a new, empty folder each time)."""
    return tmp_path / "romme.db"


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, database_path: Path) -> str | Path:
    """The test's database on each backend in turn: an SQLite file, then a PostgreSQL database."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return database_path


@pytest.fixture
def backend(database: str | Path) -> str:
    """Which backend ``database`` is: ``"sqlite"`` or ``"postgres"``."""
    return "postgres" if isinstance(database, str) else "sqlite"


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Database]:
    """The bot's storage on the test's ``database`` (each backend in turn), closed at the end."""
    store = await open_database(database)
    yield store
    await store.close()


@pytest.fixture(autouse=True)
def patient_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot started (or restarted) under SimCord is waited for until it is ready, not failed after
    SimCord's fixed 5 s: on a loaded machine a start can take longer (see ``patient_start``)."""
    monkeypatch.setattr(simcord.Env, "_settle_internal", patient_start(simcord.Env._settle_internal))


@pytest.fixture
async def simcord_bot(database_path: Path) -> AsyncIterator[RommeBot]:
    """The bot as the tests run it: its own database file, computer players without delay."""
    bot = create_bot(database_path=database_path, computer_delay=0)
    yield bot
    # SimCord detaches the bot without closing it; closing here releases the database.
    await bot.close()


def database_setting(database: str | Path) -> dict[str, str | Path]:
    """The bot's setting for ``database``: ``database_url`` for PostgreSQL, else ``database_path``.

    >>> database_setting("postgresql://x@h/db"), database_setting(Path("romme.db"))
    ({'database_url': 'postgresql://x@h/db'}, {'database_path': PosixPath('romme.db')})
    """
    if isinstance(database, str) and database.startswith("postgresql://"):
        return {"database_url": database}
    return {"database_path": database}


def integrity_errors() -> tuple[type[BaseException], ...]:
    """What each backend raises for a write its schema refuses (a check, a key, a trigger)."""
    import sqlite3

    import asyncpg

    return (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def raw_sql(database: str | Path, sql: str) -> None:
    """Run ``sql`` on ``database`` from a connection of its own, as another program would."""
    if isinstance(database, str):
        await _admin(database, sql)
        return
    import sqlite3

    with sqlite3.connect(database) as db:
        db.execute(sql)
