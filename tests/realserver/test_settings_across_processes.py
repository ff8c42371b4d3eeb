"""Issue 35, point 7: two bot processes on one PostgreSQL database (``settings_child.py``: the real
bot under SimCord, shard 0 and shard 1 of 2). A member's preference changed through one process is
in force in the other's next answer: the other had kept the member's old preferences in memory,
hears of the change (PostgreSQL's notice, as the save commits) and reads them again.

The test waits on what each process prints: its answers, and the line it prints once its storage
heard a notice. The clock only notes when each line came (the other process hears of the change
within a second of the first one's answer: in practice before it) and stops a hang.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.i18n import t

CHILD = Path(__file__).resolve().parent / "settings_child.py"
ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0
"""Seconds any line may take before the test gives up on the process (a hang, not a measure)."""


class Process:
    """One bot process of the test: its lines as they come (read by a thread of their own)."""

    def __init__(self, url: str, shard: int) -> None:
        self.child = subprocess.Popen(
            [sys.executable, str(CHILD), url, str(shard)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            text=True,
        )
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self.heard: list[tuple[float, str]] = []
        """The ``HEARD`` lines not waited for yet, with when each came."""
        self.came = 0.0
        """When the last line returned by :meth:`next` came (``time.monotonic()``)."""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.child.stdout is not None
        for line in self.child.stdout:
            self.lines.put((time.monotonic(), line.strip()))
        self.lines.put((time.monotonic(), ""))  # the process ended

    def next(self, prefix: str) -> str:
        """The next line starting with ``prefix`` (the ``HEARD`` lines before it are noted)."""
        while True:
            try:
                self.came, line = self.lines.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no {prefix} line in {TIMEOUT} s: {self.stop()[-3000:]}") from None
            if not line:
                raise AssertionError(f"the bot process ended before {prefix}: {self.stop()[-3000:]}")
            if line.startswith(prefix):
                return line
            if line.startswith("HEARD"):
                self.heard.append((self.came, line))

    def ask(self, command: str, prefix: str) -> str:
        """Send ``command``; return the process's answer (its line starting with ``prefix``)."""
        assert self.child.stdin is not None
        self.child.stdin.write(command + "\n")
        self.child.stdin.flush()
        return self.next(prefix)

    def hear(self, line: str) -> float:
        """Wait until the process printed ``line`` (a ``HEARD`` line), maybe already; each line
        heard is waited for once. Returns when the line came."""
        while True:
            for index, (came, heard) in enumerate(self.heard):
                if heard == line:
                    del self.heard[index]
                    return came
            found = self.next("HEARD")
            self.heard.append((self.came, found))

    def stop(self) -> str:
        """End the process (``QUIT``: it closes the bot; killed if it does not); its standard error."""
        if self.child.poll() is None:
            try:
                assert self.child.stdin is not None
                self.child.stdin.write("QUIT\n")
                self.child.stdin.flush()
                self.child.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.child.kill()
        assert self.child.stderr is not None
        return self.child.stderr.read()


@pytest.mark.slow
def test_a_preference_changed_through_one_process_is_in_force_in_the_others_next_answer(
    postgres_url: str,
) -> None:
    one, other = Process(postgres_url, 0), Process(postgres_url, 1)
    try:
        ada = one.next("READY").split()[1]
        assert other.next("READY").split()[1] == ada  # the same person in both processes
        # The other process answers ada in English, and keeps her preferences in memory.
        assert other.ask("HELP", "HELP") == f"HELP {t('help.title', 'en')}"
        # Through the first process, ada chooses German.
        saved = one.ask("PREFER language=de", "SAVED")
        assert saved == "SAVED " + t("settings.saved", "de", what=t("preferences.name.language", "de"))
        answered = one.came
        heard = other.hear(f"HEARD member {ada}") - answered
        print(f"the other process heard of the change {heard:+.3f} s after the first one answered")
        assert heard < 1.0
        # Its next answer is in German.
        assert other.ask("HELP", "HELP") == f"HELP {t('help.title', 'de')}"
        # And back to Discord's language (English here), the same way.
        one.ask("PREFER language=default", "SAVED")
        other.hear(f"HEARD member {ada}")
        assert other.ask("HELP", "HELP") == f"HELP {t('help.title', 'en')}"
    finally:
        errors = one.stop(), other.stop()
    for err in errors:
        assert "Traceback" not in err, err[-3000:]
