"""The health and metrics server: ``GET /healthz`` and ``GET /metrics`` over HTTP, on the bot's loop.

It is aiohttp's (a dependency of discord.py already), run by an ``AppRunner`` on the bot's own event
loop: a scrape reads the bot's parts where they live, with no lock and no thread. No access log (a
probe every few seconds would drown the bot's own); no other path (404).
"""

from __future__ import annotations

import json
import logging

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.config import ConfigError
from bot.ops.health import check_health
from bot.ops.metrics import Metrics
from bot.ops.watched import Watched

log = logging.getLogger(__name__)


class OpsServer:
    """Serves the health of ``bot`` and its ``metrics`` on ``host``:``port`` from :meth:`start`
    until :meth:`close`."""

    def __init__(self, bot: Watched, metrics: Metrics, *, host: str, port: int) -> None:
        """A server not listening yet; ``port`` 0 takes a free one (tests; see :attr:`port`)."""
        self.bot = bot
        self.metrics = metrics
        self.host = host
        self.wanted_port = port
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    @property
    def port(self) -> int:
        """The port it listens on (once started)."""
        if self._runner is None:
            raise RuntimeError("the health server is not started")
        for address in self._runner.addresses:
            return int(address[1])
        raise RuntimeError("the health server listens nowhere")

    async def start(self) -> None:
        """Listen; a port that cannot be had is a :class:`~bot.config.ConfigError` naming
        ``HEALTH_PORT``."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.wanted_port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            reason = exc.strerror or str(exc)
            raise ConfigError(
                "HEALTH_PORT", f"{self.wanted_port} on {self.host} cannot be listened on ({reason})"
            ) from None
        self._runner, self._site = runner, site
        log.info("health and metrics on http://%s:%d (/healthz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        """Stop listening (a second call does nothing)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        report = await check_health(self.bot)
        return web.Response(
            text=json.dumps(report),
            status=200 if report["status"] == "ok" else 503,
            content_type="application/json",
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})
