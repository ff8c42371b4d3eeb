"""One database file, one bot process: an OS lock on ``<database>.lock`` held while it is open.

:func:`hold` takes an exclusive ``fcntl.flock`` on the lock file beside the database, without
waiting: if another process holds it, :class:`DatabaseInUse` says so in one line (with that
process's id, which the holder writes into the file). The lock belongs to the open file, so the
operating system drops it when the process ends, however it ends: a killed bot never blocks the
next start, and there is no lease to expire.

Inside one process the lock is shared: every :class:`~bot.storage.Storage` of the same file holds
the same lock (counted), so a process may open the file again (a restart of the bot in place, a
test) while the first copy is still closing.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     database = pathlib.Path(folder) / "romme.db"
...     first, again = hold(database), hold(database)
...     held = first.path.name, first.path.read_text().strip() == str(os.getpid())
...     first.release(); again.release()
>>> held
('romme.db.lock', True)
"""

from __future__ import annotations

import fcntl
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from bot.storage.errors import StorageError

_GUARD = threading.Lock()


class DatabaseInUse(StorageError):
    """Another process has the database open (one bot per file); the message is one line.

    >>> str(DatabaseInUse(Path("romme.db"), holder="4242"))
    'romme.db is in use by another romme-bot process (pid 4242): run one bot per database file'
    """

    def __init__(self, database: Path, *, holder: str | None) -> None:
        who = f" (pid {holder})" if holder else ""
        super().__init__(
            f"{database} is in use by another romme-bot process{who}: run one bot per database file"
        )
        self.database = database
        self.holder = holder


@dataclass(eq=False)
class _Held:
    fd: int
    count: int = 0


_HELD: dict[Path, _Held] = {}
"""The lock files this process holds, by resolved path, with how many holders share each."""


@dataclass(eq=False)
class DatabaseLock:
    """One holder's share of the process's lock on a database file; :meth:`release` it once."""

    path: Path
    """The lock file (``<database>.lock``)."""
    _released: bool = False

    def release(self) -> None:
        """Give up this share; the last share unlocks and closes the file. Twice is harmless."""
        with _GUARD:
            if self._released:
                return
            self._released = True
            held = _HELD.get(self.path)
            if held is None:
                return
            held.count -= 1
            if held.count <= 0:
                del _HELD[self.path]
                os.close(held.fd)  # closing the file drops the flock


def lock_path(database: Path) -> Path:
    """The lock file of ``database``: beside it, its name plus ``.lock``.

    >>> lock_path(Path("/data/romme.db"))
    PosixPath('/data/romme.db.lock')
    """
    return database.with_name(database.name + ".lock")


def hold(database: str | os.PathLike[str]) -> DatabaseLock:
    """Hold the lock of ``database`` for this process (shared with its other holders here).

    Raises :class:`DatabaseInUse` if another process holds it, :class:`StorageError` if the lock
    file cannot be created.
    """
    database = Path(database)
    path = lock_path(database).resolve()
    with _GUARD:
        held = _HELD.get(path)
        if held is None:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                problem = f"cannot create the lock file {path} ({exc.strerror})"
                raise StorageError(f"{database}: {problem}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_holder(fd)
                os.close(fd)
                raise DatabaseInUse(database, holder=holder) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            held = _HELD[path] = _Held(fd)
        held.count += 1
    return DatabaseLock(path)


def check_free(database: str | os.PathLike[str]) -> None:
    """Raise :class:`DatabaseInUse` if another process holds the lock of ``database``; else return.

    Creates nothing and writes nothing: a lock file that does not exist is held by nobody, and one
    that does is opened read-only and locked shared for an instant (a bot starting at that very
    instant is refused as if a bot held it; it is started again). For ``romme-bot check``.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     check_free(pathlib.Path(folder) / "romme.db")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    []
    """
    database = Path(database)
    path = lock_path(database).resolve()
    with _GUARD:
        if path in _HELD:
            return  # this process's own
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StorageError(f"{database}: cannot read the lock file {path} ({exc.strerror})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            raise DatabaseInUse(database, holder=_read_holder(fd)) from None
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _read_holder(fd: int) -> str | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return text if text.isdigit() else None


__all__ = ["DatabaseInUse", "DatabaseLock", "check_free", "hold", "lock_path"]
