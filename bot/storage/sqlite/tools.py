"""What an operator does to an SQLite file beside the bot: look at it (``romme-bot check``) and copy
it while the bot runs (``romme-bot backup``). Neither migrates, writes or locks the file.

:func:`check_file` reads through a read-only connection; a file no process has open and that has no
write-ahead log is opened ``immutable`` (SQLite then makes no ``-wal`` or ``-shm`` beside it).
:func:`backup_file` uses SQLite's online backup API: a read transaction on the live file (in WAL
mode it never waits for the bot's writes, nor they for it) copied page by page into a new file, which
is then one self-contained file (journal mode DELETE), ready to be copied back.

>>> import asyncio, tempfile, pathlib
>>> from bot.storage import Storage
>>> async def demo(folder):
...     storage = await Storage.open(folder / "romme.db")
...     await storage.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"n": 0})
...     copied = backup_file(folder / "romme.db", folder / "copy.db")  # the storage is still open
...     await storage.close()
...     return copied, check_file(folder / "copy.db")
>>> with tempfile.TemporaryDirectory() as folder:
...     print(*asyncio.run(demo(pathlib.Path(folder))), sep="\\n")
/.../romme.db: 1 game (1 unfinished) copied to /.../copy.db
/.../copy.db: schema version ..., 1 game (1 unfinished), not in use
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path

from bot.storage.errors import StorageError
from bot.storage.sqlite.lock import check_free, lock_path
from bot.storage.sqlite.schema import SCHEMA_VERSION, schema_problem


def _read_only(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")
    try:
        return sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise StorageError(f"{path}: cannot open the database ({exc})") from None


def _games(db: sqlite3.Connection) -> str:
    total, open_ = db.execute(
        "SELECT count(*), count(*) FILTER (WHERE status IN ('lobby', 'playing')) FROM games"
    ).fetchone()
    return f"{total} game{'' if total == 1 else 's'} ({open_} unfinished)"


def check_file(path: str | os.PathLike[str]) -> str:
    """One line saying what is fine with the database file ``path``, changing nothing; raises
    :class:`StorageError` (one line) naming what is not: its folder missing or not writable, the
    file in use by another process, unreadable, damaged (``PRAGMA quick_check``), newer than this
    code or another program's. A file at an older schema is fine: the bot migrates it when it
    starts (the line says so); a file that does not exist yet is fine if the bot can create it.
    """
    path = Path(path)
    if not path.parent.is_dir():
        raise StorageError(f"{path}: the folder {path.parent} does not exist")
    if not path.exists():
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise StorageError(f"{path}: the folder {path.parent} is not writable: the bot cannot create it")
        return f"{path} does not exist yet: the bot creates it when it starts"
    if not os.access(path.parent, os.W_OK | os.X_OK) and not lock_path(path).exists():
        raise StorageError(f"{path}: the folder {path.parent} is not writable: the bot cannot lock the file")
    check_free(path)
    wal = path.with_name(path.name + "-wal")
    db = _read_only(path, immutable=not wal.exists())
    try:
        current = int(db.execute("PRAGMA user_version").fetchone()[0])
        tables = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").fetchone()
        problem = schema_problem(str(path), current, has_tables=tables is not None)
        if problem is not None:
            raise problem
        if tables is None:
            return f"{path} is empty: the bot makes its tables when it starts"
        damage = [row[0] for row in db.execute("PRAGMA quick_check")]
        if damage != ["ok"]:
            raise StorageError(f"{path} is damaged (PRAGMA quick_check: {damage[0]})")
        games = _games(db)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path} is not a readable SQLite database ({exc})") from None
    finally:
        db.close()
    if current < SCHEMA_VERSION:
        return (
            f"{path}: schema version {current} of {SCHEMA_VERSION}, {games}, not in use; "
            "the bot brings it up to date when it starts"
        )
    return f"{path}: schema version {current}, {games}, not in use"


def backup_file(path: str | os.PathLike[str], to: str | os.PathLike[str]) -> str:
    """Copy the database ``path`` into the new file ``to`` with SQLite's online backup API, while
    a bot may be saving into it; returns one line saying what was copied. The copy is the database
    as of one committed transaction, checked (``PRAGMA quick_check``) before it is put at ``to``.

    Raises :class:`StorageError` (one line) when ``to`` exists (it is never overwritten), when
    ``path`` does not exist or is not this bot's database, or when the copy cannot be written.
    """
    path, to = Path(path), Path(to)
    if to.exists():
        raise StorageError(f"{to} exists already: back up into a new file")
    if not path.is_file():
        raise StorageError(f"{path} does not exist: nothing to back up")
    if not to.parent.is_dir():
        raise StorageError(f"{to}: the folder {to.parent} does not exist")
    partial = to.with_name(f".{to.name}.{os.getpid()}.partial")
    source = _read_only(path)
    try:
        target = sqlite3.connect(partial, isolation_level=None)
        try:
            # One step (all pages): one read transaction, so the copy is one committed state.
            source.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
            current = int(target.execute("PRAGMA user_version").fetchone()[0])
            problem = schema_problem(str(path), current, has_tables=True)
            if problem is not None or current == 0:
                raise problem or StorageError(f"{path} is not a Rommé database (no schema version)")
            damage = [row[0] for row in target.execute("PRAGMA quick_check")]
            if damage != ["ok"]:
                raise StorageError(f"the copy of {path} is damaged (PRAGMA quick_check: {damage[0]})")
            games = _games(target)
        finally:
            target.close()
        # A hard link fails if ``to`` appeared meanwhile: an existing file is never replaced.
        os.link(partial, to)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path}: the backup failed ({exc})") from None
    except FileExistsError:
        raise StorageError(f"{to} exists already: back up into a new file") from None
    except OSError as exc:
        raise StorageError(f"{to}: cannot write the backup ({exc.strerror})") from None
    finally:
        source.close()
        partial.unlink(missing_ok=True)
    return f"{path}: {games} copied to {to}"
