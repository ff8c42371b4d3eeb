"""The settings' notices on PostgreSQL: every process hears, within milliseconds, that a server's
settings or a member's preferences were saved (:meth:`~bot.storage.interface.Database.on_settings_changed`).

A save of either sends ``NOTIFY romme_settings`` in its own transaction (``pg_notify``, see
:meth:`~bot.storage.postgres.PostgresStorage._put_settings`): the server delivers it as the save
commits, to every connection that listens (``LISTEN``), so a read made on hearing it sees the save. The
payload is ``<schema> <kind> <id>``: the schema the tables are in (the channel is the database's,
and processes on other schemas of it ignore what is not theirs), ``server`` or ``member``, and the
id; never a value.

:class:`SettingsNotices` holds this process's one listening connection, apart from the pool (a
pooled connection is shared and reset; a ``LISTEN`` must stay). When it is lost (the server
restarted, the connection was cut), its listeners hear ``SettingsChange(None)`` at once and again
once it is back: what was said meanwhile was missed, so whatever a process kept is to be read again.
It is connected again after 0.5 s, then 1, 2, … up to 30 s between tries, until the storage closes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncpg

from bot.storage.errors import StorageError
from bot.storage.interface import SettingsChange, SettingsListener
from bot.storage.postgres.leases import CONNECT_TIMEOUT, one_line

log = logging.getLogger(__name__)

CHANNEL = "romme_settings"
"""The ``LISTEN``/``NOTIFY`` channel of the settings' notices."""
KINDS = {"guild_settings": "server", "member_preferences": "member"}
"""The kind of notice a save of each settings table sends."""
RETRY = (0.5, 30.0)
"""Seconds before the first try to connect the lost listening connection again, and at most between tries."""


def notice_sql(table: str, key: str) -> str:
    """The part of a settings save that sends its notice: ``pg_notify`` on the row just written
    (the statement's ``saved`` part returns its ``key``), in the save's own transaction.

    >>> notice_sql("member_preferences", "user_id")
    "SELECT pg_notify('romme_settings', current_schema() || ' member ' || user_id) FROM saved"
    """
    return f"SELECT pg_notify('{CHANNEL}', current_schema() || ' {KINDS[table]} ' || {key}) FROM saved"


def parse_notice(payload: str, schema: str) -> SettingsChange | None:
    """The change a notice's payload names, or ``None`` for one of another schema (or not ours).

    >>> parse_notice("t1 member 7", "t1"), parse_notice("t2 member 7", "t1"), parse_notice("x", "t1")
    (SettingsChange(kind='member', owner=7), None, None)
    """
    parts = payload.rsplit(" ", 2)
    if len(parts) != 3 or parts[0] != schema or not parts[2].isascii() or not parts[2].isdigit():
        return None
    if parts[1] == "server":
        return SettingsChange("server", int(parts[2]))
    if parts[1] == "member":
        return SettingsChange("member", int(parts[2]))
    return None


def _not_listening(shown: str, exc: BaseException) -> StorageError:
    return StorageError(f"{shown}: cannot listen for the settings' notices ({one_line(exc)})")


class SettingsNotices:
    """The listening connection of one storage, and the listeners it calls (see the module).

    Open it with :meth:`SettingsNotices.open`; :meth:`add` a listener; :meth:`close` it with its storage.
    """

    def __init__(self, url: str, shown: str, connection: asyncpg.Connection, schema: str) -> None:
        """Wrap a connection that listens already; use :meth:`SettingsNotices.open`."""
        self._url = url
        self._shown = shown
        self._connection: asyncpg.Connection | None = connection
        self.schema = schema
        """The schema whose notices this process hears (its tables')."""
        self._listeners: list[SettingsListener] = []
        self._closed = False
        self._again: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, shown: str) -> SettingsNotices:
        """Connect to ``url`` (the server's URL, its query as server settings) and listen; raises
        :class:`StorageError` (one line naming ``shown``) when the server refuses."""
        try:
            connection = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            raise _not_listening(shown, exc) from None
        try:
            schema = str(await connection.fetchval("SELECT current_schema()") or "public")
            notices = cls(url, shown, connection, schema)
            await notices._listen(connection)
        except BaseException as exc:
            connection.terminate()
            if isinstance(exc, (TimeoutError, OSError, asyncpg.PostgresError)):
                raise _not_listening(shown, exc) from None
            raise
        return notices

    @property
    def listening(self) -> bool:
        """Whether the connection is up and listening (else it is being connected again)."""
        return self._connection is not None and not self._connection.is_closed()

    @property
    def backend_pid(self) -> int | None:
        """The server's process id of the listening connection, while it is up (the tests cut it)."""
        return self._connection.get_server_pid() if self.listening and self._connection else None

    def add(self, listener: SettingsListener) -> None:
        """Call ``listener`` with every change heard from now on (after those added before)."""
        self._listeners.append(listener)

    async def close(self) -> None:
        """Stop listening and close the connection; closing twice is harmless."""
        self._closed = True
        if self._again is not None:
            self._again.cancel()
            await asyncio.gather(self._again, return_exceptions=True)
            self._again = None
        connection, self._connection = self._connection, None
        if connection is not None and not connection.is_closed():
            try:
                await connection.close(timeout=CONNECT_TIMEOUT)
            except (TimeoutError, OSError, asyncpg.PostgresError):
                connection.terminate()

    def terminate(self) -> None:
        """Drop the connection at once, as a killed process would (tests)."""
        self._closed = True
        if self._again is not None:
            self._again.cancel()
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.terminate()

    # ------------------------------------------------------------------ plumbing

    async def _listen(self, connection: asyncpg.Connection) -> None:
        """``LISTEN`` on ``connection``, and hear of its loss."""
        await connection.add_listener(CHANNEL, self._heard)
        connection.add_termination_listener(self._lost)

    def _heard(self, connection: Any, pid: int, channel: str, payload: object) -> None:
        change = parse_notice(str(payload), self.schema)
        if change is not None:
            self._tell(change)

    def _lost(self, connection: Any) -> None:
        if self._closed or connection is not self._connection:
            return
        self._connection = None
        log.warning("%s: the settings' notices connection was lost: connecting again", self._shown)
        self._tell(SettingsChange(None))
        self._again = asyncio.ensure_future(self._reconnect())

    async def _reconnect(self) -> None:
        pause, most = RETRY
        while not self._closed:
            await asyncio.sleep(pause)
            connection: asyncpg.Connection | None = None
            try:
                connection = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
                self._connection = connection
                await self._listen(connection)
            except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
                self._connection = None
                if connection is not None:
                    connection.terminate()
                log.warning("%s: settings' notices: still not connected (%s)", self._shown, one_line(exc))
                pause = min(pause * 2, most)
                continue
            if self._closed:
                connection.terminate()
                return
            log.info("%s: the settings' notices are heard again", self._shown)
            # What was saved while nobody listened was not heard: everything is to be read again.
            self._tell(SettingsChange(None))
            return

    def _tell(self, change: SettingsChange) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("a listener of the settings' notices failed on %s", change)


__all__ = ["CHANNEL", "KINDS", "SettingsNotices", "notice_sql", "parse_notice"]
