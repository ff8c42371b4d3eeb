"""The image starts as the README says (issue 26), tested without a Docker engine.

The README's Docker path is: copy ``.env.example`` to ``.env``, then
``docker run --env-file .env -v romme-data:/data romme-bot``. These tests read the Dockerfile's
``ENV``, ``WORKDIR``, ``USER`` and ``VOLUME`` lines, read ``.env.example`` as ``docker run
--env-file`` does, and start the bot's configuration and storage (``load_settings``, then
``open_database`` with the table service's replay, as the bot starts them) in a fresh process
running as the image's user, in the image's working folder.

The image's filesystem is a stand-in: a temporary folder in which every path of the image is
rewritten (``/app`` is ``<tmp>/image/app``, ``/data`` is ``<tmp>/image/data``, in the settings'
values too), owned by root except the volume's folder, which the Dockerfile's ``RUN`` gives to the
user. The process loads the bot's code, then becomes the uid of ``USER`` with no other group before
it reads a setting (the tests run as root); run by anyone else, it stays that user, and every
folder but the volume's is made read-only. ``PYTHONPATH`` set to this checkout stands in for
``pip install .``.

Then: the bot started, its database is inside the volume, and nothing was written outside it (no
file of the image's folders changed, and, when run as another uid, that uid owns no file written
since the start in the temporary folders anyone may write in).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import stat
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest
from dotenv import dotenv_values

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
ENV_EXAMPLE = ROOT / ".env.example"

START = """
import asyncio, json, os, sys
from bot.config import ConfigError, load_settings
from bot.service.game import replay_snapshot
from bot.storage import StorageError, open_database

uid = int(sys.argv[1])
if uid != os.geteuid():
    # The code is loaded (in the image the user reads the installed package; here the tests'
    # Python may sit where only root reads, as under /root): from now on, the image's user alone.
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)

async def start():
    settings = load_settings()  # the environment over ./.env, as `romme-bot` reads them
    database = await open_database(settings.database, replay=replay_snapshot)
    game = await database.create_game(guild_id=1, channel_id=2, host_id=3, snapshot={"version": 1})
    await database.close()
    return {"database": os.path.abspath(settings.database), "game": game}

try:
    print(json.dumps(asyncio.run(start())))
except (ConfigError, StorageError) as exc:  # as the command line says it: one line, status 2
    print(f"romme-bot: {exc}", file=sys.stderr)
    sys.exit(2)
"""
"""The start of ``romme-bot`` up to connecting to Discord: the settings, then the storage, as the
uid given (the process starts as root only to load the code, then becomes that uid)."""


@dataclass
class Image:
    """What the Dockerfile's last stage sets for the process it runs."""

    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    workdirs: list[str] = field(default_factory=list)
    """Every ``WORKDIR`` of the stage (docker makes each), the last one being :attr:`workdir`."""
    user: str = "root"
    volumes: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)


def instructions(text: str) -> Iterator[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined and comment lines dropped."""
    logical = ""
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue  # docker drops comment lines, inside a continued instruction too
        if line.rstrip().endswith("\\"):
            logical += line.rstrip()[:-1] + " "
            continue
        logical += line
        if logical.strip():
            keyword, _, arguments = logical.strip().partition(" ")
            yield keyword.upper(), arguments.strip()
        logical = ""


def read_image(text: str) -> Image:
    """The ``ENV``, ``WORKDIR``, ``USER``, ``VOLUME``, ``RUN`` and ``CMD`` of the last stage."""
    image = Image()
    for keyword, arguments in instructions(text):
        if keyword == "FROM":
            image = Image()  # a stage starts from its base alone
        elif keyword == "ENV":
            assert "$" not in arguments, "variables in ENV are not read by this test"
            words = shlex.split(arguments)
            if all("=" in word for word in words):
                image.env.update(word.partition("=")[::2] for word in words)
            else:  # the old form: ENV NAME value
                name, _, value = arguments.partition(" ")
                image.env[name] = value.strip()
        elif keyword == "WORKDIR":
            assert "$" not in arguments, "variables in WORKDIR are not read by this test"
            image.workdir = str(PurePosixPath(image.workdir, arguments))
            image.workdirs.append(image.workdir)
        elif keyword == "USER":
            image.user = arguments
        elif keyword == "VOLUME":
            image.volumes += json.loads(arguments) if arguments.startswith("[") else arguments.split()
        elif keyword == "RUN":
            image.runs.append(arguments)
        elif keyword == "CMD":
            image.command = json.loads(arguments) if arguments.startswith("[") else ["sh", "-c", arguments]
    return image


def read_env_file(text: str, host: Mapping[str, str]) -> dict[str, str]:
    """The variables ``docker run --env-file`` sets from ``text``: ``NAME=value`` lines, the value
    taken as it is (no quotes removed, nothing trimmed on the right, empty stays empty); lines
    starting with ``#`` (after blanks) and blank lines skipped; a bare ``NAME`` passes the host's
    value on, if the host has one."""
    variables: dict[str, str] = {}
    for line in text.splitlines():
        line = line.lstrip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = line.partition("=")
        name = name.lstrip()
        assert name and not re.search(r"\s", name), f"docker refuses the env file's line {line!r}"
        if equals:
            variables[name] = value
        elif name in host:
            variables[name] = host[name]
    return variables


class FileSystem:
    """The image's filesystem in a temporary folder: :meth:`path` gives the stand-in of a path."""

    def __init__(self, root: Path, image: Image) -> None:
        self.root = root
        self.image = image
        self.folders = [*image.workdirs, *image.volumes]

    def path(self, image_path: str) -> Path:
        return self.root / image_path.lstrip("/")

    def rewrite(self, value: str) -> str:
        """``value`` with a path in one of the image's folders made the stand-in's path."""
        for folder in self.folders:
            if value == folder or value.startswith(folder.rstrip("/") + "/"):
                return str(self.path(value))
        return value


def image_user(image: Image) -> int:
    """The uid of ``USER`` (numeric: a platform that checks the image runs as non-root, such as
    Kubernetes' ``runAsNonRoot``, needs a number)."""
    uid = image.user.partition(":")[0]
    assert uid.isdigit(), f"USER {image.user} is not numeric"
    assert int(uid) != 0, "the image runs as root"
    return int(uid)


def volume_is_given_to_the_user(image: Image, volume: str, uid: int) -> bool:
    """Whether a ``RUN`` makes ``volume`` the user's (``chown <user> /data``, by uid or by the name
    ``useradd`` gives that uid)."""
    names = {str(uid)}
    for run in image.runs:
        names.update(re.findall(rf"useradd\b[^&;]*--uid\s+{uid}\s+(?:-\S+\s+)*(\w+)", run))
    owners = {
        owner.partition(":")[0]
        for run in image.runs
        for owner in re.findall(rf"chown\s+(?:-R\s+)?(\S+)\s+{re.escape(volume)}(?:\s|$)", run)
    }
    return bool(owners & names)


def snapshot(root: Path, leave_out: Path) -> dict[str, tuple[int, int, int]]:
    """Every path under ``root`` but ``leave_out``, with its size, change time and mode."""
    found = {}
    for folder, subfolders, files in os.walk(root):
        if Path(folder) == leave_out:
            subfolders.clear()
            continue
        for name in subfolders + files:
            path = Path(folder, name)
            if path == leave_out:
                continue
            info = path.lstat()
            found[str(path)] = (info.st_size, info.st_mtime_ns, info.st_mode)
    return found


def written_by(uid: int, since: float, tops: list[Path]) -> list[Path]:
    """Files and folders ``uid`` owns, changed since ``since``, under ``tops``: only folders that
    ``uid`` can enter are walked (those are the only ones it can have written in)."""
    found = []
    for top in tops:
        for folder, subfolders, files in os.walk(top):
            for name in list(subfolders):
                try:
                    info = Path(folder, name).lstat()
                except OSError:
                    subfolders.remove(name)
                    continue
                if info.st_uid != uid and not info.st_mode & stat.S_IXOTH:
                    subfolders.remove(name)  # closed to others: uid cannot have written inside
            for name in subfolders + files:
                try:
                    info = Path(folder, name).lstat()
                except OSError:
                    continue
                if info.st_uid == uid and info.st_mtime >= since:
                    found.append(Path(folder, name))
    return found


def start_as_the_image(env_file: str, folder: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Start the bot's settings and storage as the image would, with ``env_file`` as ``--env-file``,
    in a stand-in of the image under ``folder``; the process, and the volume's stand-in."""
    image = read_image(DOCKERFILE.read_text(encoding="utf-8"))
    uid = image_user(image)
    assert len(image.volumes) == 1, f"one volume for the database, not {image.volumes}"
    (volume,) = image.volumes
    assert volume_is_given_to_the_user(image, volume, uid), f"no RUN gives {volume} to the user {uid}"
    files = FileSystem(folder / "image", image)
    data = files.path(volume)
    for image_folder in files.folders:
        files.path(image_folder).mkdir(parents=True, exist_ok=True)
    as_root = os.geteuid() == 0
    # What docker sets: a PATH, HOME (the user's, a folder --no-create-home does not make), the
    # image's ENV, then the env file's variables over them; paths in the image made the stand-in's.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(files.path("/home/romme"))}
    env.update((name, files.rewrite(value)) for name, value in image.env.items())
    env.update((name, files.rewrite(value)) for name, value in read_env_file(env_file, host={}).items())
    # Stands in for `pip install .` (with the tests' own import path, whatever installed them).
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    )
    if as_root:
        os.chown(data, uid, uid)
        for path in (folder, *files.root.rglob("*"), files.root):
            if path != data:
                path.chmod(0o755)
    else:
        for path in (*files.root.rglob("*"), files.root, folder):
            path.chmod(0o700 if path == data else 0o555)
    started = time.time() - 1  # mtimes may be coarser than time.time()
    before = snapshot(folder, leave_out=data)
    process = subprocess.run(
        [sys.executable, "-c", START, str(uid if as_root else os.geteuid())],
        cwd=files.path(image.workdir),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert snapshot(folder, leave_out=data) == before, "the process wrote in the image's folders"
    if as_root:
        tops = [Path(tempfile.gettempdir()), Path("/var/tmp"), Path("/dev/shm")]
        outside = [
            p
            for p in written_by(uid, started, [t for t in tops if t.is_dir()])
            if p != data and data not in p.parents
        ]
        assert outside == [], f"uid {uid} wrote outside the volume: {outside}"
    return process, data


@pytest.fixture
def folder() -> Iterator[Path]:
    # Not tmp_path: pytest keeps its folders closed to other users, and the image's user must
    # reach the stand-in.
    with tempfile.TemporaryDirectory(prefix="romme-image-") as made:
        yield Path(made)
        Path(made).chmod(0o700)  # removable again when not run as root
        for path in Path(made).rglob("*"):
            if path.is_dir() and not path.is_symlink():
                path.chmod(0o700)


def env_example_with(line: str) -> str:
    """``.env.example`` with its ``DATABASE_PATH`` line (commented out or not) replaced by ``line``."""
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    replaced, count = re.subn(r"^#?\s*DATABASE_PATH=.*$", line, text, flags=re.M)
    assert count == 1, "DATABASE_PATH is not in .env.example once"
    return replaced


@pytest.mark.parametrize(
    "env_file",
    [
        pytest.param(None, id="env.example"),
        # What .env files copied from the earlier .env.example say: the image keeps it in the volume.
        pytest.param("DATABASE_PATH=romme.db", id="relative-path"),
        pytest.param("DATABASE_PATH=", id="empty"),
    ],
)
@pytest.mark.slow
def test_the_image_starts_with_the_env_file_and_keeps_the_database_in_its_volume(
    folder: Path, env_file: str | None
) -> None:
    text = ENV_EXAMPLE.read_text(encoding="utf-8") if env_file is None else env_example_with(env_file)
    process, data = start_as_the_image(text, folder)
    assert process.returncode == 0, process.stderr
    started = json.loads(process.stdout)
    database = Path(started["database"])
    assert data in database.parents and database.is_file(), database
    assert started["game"] >= 1
    assert {p.name for p in data.iterdir()} <= {database.name, database.name + ".lock"}


def test_the_image_runs_the_bot_command_itself() -> None:
    # The entry point `pip install .` makes, not `python -m bot`, which would put the working
    # folder (the volume, which the bot writes) first on the module path.
    image = read_image(DOCKERFILE.read_text(encoding="utf-8"))
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert image.command == ["romme-bot"] and scripts["romme-bot"] == "bot.__main__:main"


def test_env_example_reads_the_same_in_docker_and_in_the_bot() -> None:
    # Copied to .env, the file is read by `docker run --env-file` in a container and by the bot
    # itself (python-dotenv) outside one: no quotes, no comments after a value, no `export`.
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    as_docker = read_env_file(text, host={})
    as_bot = {name: value or "" for name, value in dotenv_values(ENV_EXAMPLE).items()}
    assert as_docker == as_bot
    # What the image sets is the image's: a line here, even an empty one, would override it (issue
    # 26: DATABASE_PATH=romme.db put the database where the image's user cannot write).
    image = read_image(DOCKERFILE.read_text(encoding="utf-8"))
    assert "DATABASE_PATH" in image.env
    assert set(as_docker) & set(image.env) == set()


def test_the_reading_of_the_dockerfile_and_the_env_file() -> None:
    image = read_image(
        "FROM base AS build\nENV A=1\nFROM python:3.11-slim\n# ENV B=0\n"
        'ENV B=2 \\\n    C="two words"\nENV D old form\nWORKDIR /app\nWORKDIR sub\nUSER 10001\n'
        'VOLUME ["/data"]\nRUN useradd --system --uid 10001 romme \\\n    && chown romme /data\n'
        'CMD ["run", "it"]\n'
    )
    assert image.env == {"B": "2", "C": "two words", "D": "old form"}
    assert (image.workdir, image.user, image.volumes) == ("/app/sub", "10001", ["/data"])
    assert image.workdirs == ["/app", "/app/sub"]
    assert image.command == ["run", "it"]
    assert volume_is_given_to_the_user(image, "/data", 10001)
    assert not volume_is_given_to_the_user(image, "/data", 10002)
    env = read_env_file(
        '# a comment\n\n  A=1\nB=\nC="quoted" # kept\nHOSTS\nMISSING\nD=x=y\n', host={"HOSTS": "h"}
    )
    assert env == {"A": "1", "B": "", "C": '"quoted" # kept', "HOSTS": "h", "D": "x=y"}
