"""Health and metrics: how an operator (or a container platform) sees whether the bot is well.

With ``HEALTH_PORT`` set, the bot serves on ``HEALTH_HOST`` (default 127.0.0.1), on its own event
loop (:class:`~bot.ops.server.OpsServer`, aiohttp):

- ``GET /healthz``: 200 and a small JSON when the gateway is connected, the shard leases held, the
  database answering and its writer up; 503 with the same JSON naming what is not
  (:mod:`bot.ops.health`);
- ``GET /metrics``: Prometheus's text format, series named ``romme_…`` (:mod:`bot.ops.metrics`).

This package sits over the publisher, the service and the storage and reads what they count
(:mod:`bot.ops.watched`); they know nothing of it: the service reports its saves and computer
moves to a :class:`~bot.service.meter.Meter` it is given. The client starts the server in its
``setup_hook`` and stops it when it closes.
"""

from bot.ops.health import check_health
from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer
from bot.ops.watched import Watched

__all__ = ["Metrics", "OpsServer", "Watched", "check_health"]
