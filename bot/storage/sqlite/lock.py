"""One database file, one bot process: an OS lock on ``<database>.lock`` held while it is open.

:func:`hold` takes an exclusive ``fcntl.flock`` on the lock file beside the database, without
waiting: if another process holds it, :class:`DatabaseInUse` says so in one line (with that
process's id, which the holder writes into the file). The lock belongs to the open file, so the
operating system drops it when the process ends, however it ends: a killed bot never blocks the
next start, and there is no lease to expire.

Inside one process the lock is shared: every :class:`~bot.storage.Storage` of the same file holds
the same lock (counted), so a process may open the file again (a restart of the bot in place, a
test) while the first copy is still closing.

The lock file stays when the bot stops (it is harmless, and removing it there would gain nothing),
except after a refused open (:meth:`DatabaseLock.abandon`): a file that is not the bot's database
gets no ``.lock`` beside it from a bot that never used it. Removing a lock file is safe only because
it is removed by the process holding its lock, and :func:`hold` checks, once it has the lock, that
its open file is still the one at the path: a process that opened the file just before it was
removed tries again on the new file instead of locking one nobody else can see.

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
    created: bool
    """Whether this process made the lock file (only then may a refused open remove it)."""
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
        self._give_up(remove=False)

    def abandon(self) -> None:
        """Give up this share after the database was refused: as :meth:`release`, and the lock file
        is removed too if this process made it and no other share here still holds it. Twice (or
        after :meth:`release`) is harmless.

        >>> import tempfile, pathlib
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     database = pathlib.Path(folder) / "notes.db"
        ...     hold(database).abandon()
        ...     left = sorted(p.name for p in pathlib.Path(folder).iterdir())
        >>> left
        []
        """
        self._give_up(remove=True)

    def _give_up(self, *, remove: bool) -> None:
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
                try:
                    # Removed while still locked, and only if the path is still this very file.
                    if remove and held.created and _same_file(held.fd, self.path):
                        self.path.unlink()
                except OSError:
                    pass  # left behind: harmless, as after a stop
                finally:
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
            held = _HELD[path] = _lock(database, path)
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


_ATTEMPTS = 10
"""Times :func:`_lock` tries again when the lock file is removed under it (each time means another
process just gave the database up: a few in a row already are out of the ordinary)."""


def _lock(database: Path, path: Path) -> _Held:
    for _ in range(_ATTEMPTS):
        try:
            opened = _open_lock_file(path)
        except OSError as exc:
            problem = f"cannot create the lock file {path} ({exc.strerror})"
            raise StorageError(f"{database}: {problem}") from None
        if opened is None:
            continue  # removed between the two opens: try again
        fd, created = opened
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _read_holder(fd)
            os.close(fd)
            raise DatabaseInUse(database, holder=holder) from None
        if not _same_file(fd, path):
            # Its holder removed it (a refused open) after this process opened it: that lock
            # guards nothing any more; the file at the path now is the one to lock.
            os.close(fd)
            continue
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return _Held(fd, created)
    raise StorageError(f"{database}: the lock file {path} keeps being removed: is another program at it?")


def _open_lock_file(path: Path) -> tuple[int, bool] | None:
    """The lock file opened for writing, and whether this call made it; ``None`` if it was there,
    then gone before it could be opened."""
    flags = os.O_RDWR | os.O_CLOEXEC
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o644), True
    except FileExistsError:
        pass
    try:
        return os.open(path, flags), False
    except FileNotFoundError:
        return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        opened, named = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (opened.st_dev, opened.st_ino) == (named.st_dev, named.st_ino)


def _read_holder(fd: int) -> str | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return text if text.isdigit() else None


__all__ = ["DatabaseInUse", "DatabaseLock", "check_free", "hold", "lock_path"]
