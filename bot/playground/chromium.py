"""Headless Chromium photographs one page: a small client of its DevTools protocol, on loopback.

:func:`capture` (for several pictures, :class:`Chromium`) starts the installed Chromium
(:func:`find_chromium`; Debian's ``chromium`` first) with a fresh profile, opens the page, waits
until the preview says it drew its state and takes a PNG, which :func:`shrink` turns into a small
palette picture. Chromium is stopped with its helper processes afterwards, whatever happened.

SimCord's own capture (``Preview.screenshot``, the ``simcord[screenshot]`` extra) is not used: it
launches a browser that Playwright downloads, and it photographs the message surface alone,
without the page's toolbar that these pictures show.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aiohttp

WINDOW = (760, 1040)
"""Chromium's window for every picture (width, height)."""

MAX_PNG_BYTES = 150_000
"""The size :func:`shrink` aims under, with fewer colours when it must."""

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""The names looked for on ``PATH``, in order."""

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--mute-audio",
    "--force-prefers-reduced-motion",
)
"""Chromium's flags besides the profile, the window and the DevTools address."""

READY = "(() => { const s = window.simcordPreview; return Boolean(s && s.ready && !s.pendingAction); })()"
"""True once the page drew the preview's state and no request of its own is on the way."""


def find_chromium() -> str | None:
    """The path of an installed Chromium (Debian's ``chromium`` first), or ``None``.

    >>> found = find_chromium()
    >>> found is None or os.path.basename(found) in CHROMIUM_NAMES
    True
    """
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


async def capture(browser: str, url: str, destination: Path, *, window: tuple[int, int] = WINDOW) -> None:
    """Photograph ``url`` with the headless Chromium at ``browser`` into ``destination`` (a small PNG).

    Chromium is driven over its DevTools protocol (on loopback) so that the picture is taken once
    the page says it is ready (``window.simcordPreview``), not after a guessed delay. Raises
    ``RuntimeError`` when Chromium does not start or the page never gets ready. Several pictures
    in a row are quicker through one :class:`Chromium`.
    """
    async with Chromium(browser, window=window) as chromium:
        await chromium.capture(url, destination)


class Chromium:
    """One headless Chromium, started once for several pictures: ``async with Chromium(path) as c``,
    then ``await c.capture(url, destination)`` for each (a fresh tab each time).

    Starting Chromium takes seconds on a busy machine; a scripted game whose state moves on by
    itself (the next round starts 30 s after a round's end) takes its pictures in time this way.
    """

    def __init__(self, browser: str, *, window: tuple[int, int] = WINDOW) -> None:
        """Nothing starts before ``__aenter__``."""
        self.browser = browser
        self.window = window
        self._profile: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._port = 0

    async def __aenter__(self) -> Chromium:
        self._profile = tempfile.TemporaryDirectory(prefix="romme-chromium-", ignore_cleanup_errors=True)
        self._process = subprocess.Popen(
            [
                self.browser,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={self._profile.name}",
                f"--window-size={self.window[0]},{self.window[1]}",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Its own process group: stopping it stops its helper processes too.
            start_new_session=True,
        )
        try:
            self._port = await _devtools_port(Path(self._profile.name) / "DevToolsActivePort", self._process)
        except BaseException:
            self._close()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._close()

    def _close(self) -> None:
        if self._process is not None:
            _stop(self._process)
            self._process = None
        if self._profile is not None:
            self._profile.cleanup()
            self._profile = None

    async def capture(self, url: str, destination: Path) -> None:
        """Open ``url`` in a new tab, wait until the preview drew it, save a small PNG of it."""
        import aiohttp

        if self._process is None:
            raise RuntimeError("Chromium is not running")
        base = f"http://127.0.0.1:{self._port}"
        async with aiohttp.ClientSession() as session:
            async with session.put(f"{base}/json/new?about:blank") as response:
                target = await response.json(content_type=None)
            try:
                async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                    devtools = _DevTools(ws)
                    await devtools.call("Page.enable")
                    await devtools.call("Page.navigate", url=url)
                    await _wait_ready(devtools)
                    shot = await devtools.call("Page.captureScreenshot", format="png")
            finally:
                async with session.get(f"{base}/json/close/{target['id']}") as response:
                    await response.read()
        destination.write_bytes(shrink(base64.b64decode(shot["data"])))


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the Chromium started here and its helpers (its process group, by id)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


async def _devtools_port(path: Path, process: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    # Chromium writes the port it picked into the profile once it listens.
    for _ in range(int(timeout / 0.1)):
        if path.exists() and path.read_text().strip():
            return int(path.read_text().split()[0])
        if process.poll() is not None:
            raise RuntimeError(f"Chromium exited at start (status {process.returncode})")
        await asyncio.sleep(0.1)
    raise RuntimeError("Chromium did not open its DevTools port")


async def _wait_ready(devtools: _DevTools, timeout: float = 30.0) -> None:
    steady = 0
    for _ in range(int(timeout / 0.1)):
        answer = await devtools.call("Runtime.evaluate", expression=READY, returnByValue=True)
        # Ready twice in a row: a request the page queues right after drawing has its turn first.
        steady = steady + 1 if answer.get("result", {}).get("value") is True else 0
        if steady >= 3:
            return
        await asyncio.sleep(0.1)
    raise RuntimeError("the preview page did not get ready in Chromium")


class _DevTools:
    """Calls over one DevTools websocket: replies are matched by id, events are skipped."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Nothing is sent before :meth:`call`."""
        self.ws = ws
        self.next_id = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send ``method`` with ``params``, return its result; ``RuntimeError`` if Chromium refuses."""
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        while True:
            message = await asyncio.wait_for(self.ws.receive_json(), timeout=30)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"Chromium refused {method}: {message['error']}")
                return dict(message.get("result", {}))


def shrink(png: bytes, limit: int = MAX_PNG_BYTES) -> bytes:
    """``png`` with a palette of at most 256 colours (fewer while over ``limit`` bytes).

    The page is flat colours and text, so a palette keeps it sharp at a fraction of the size. The
    original is kept when no palette makes it smaller.

    >>> from PIL import Image
    >>> out = io.BytesIO()
    >>> Image.radial_gradient("L").convert("RGB").save(out, "PNG")
    >>> small = shrink(out.getvalue())
    >>> len(small) < len(out.getvalue()), Image.open(io.BytesIO(small)).mode
    (True, 'P')
    """
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    best = png
    for colours in (256, 128, 64):
        out = io.BytesIO()
        image.quantize(colors=colours, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
        best = out.getvalue() if len(out.getvalue()) < len(best) else best
        if len(best) <= limit:
            break
    return best
