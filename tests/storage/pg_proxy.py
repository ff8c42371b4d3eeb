"""A TCP proxy between the bot and the PostgreSQL server that counts round trips: each time the client
speaks again after the server has answered is one (the client waits for every answer in between).

>>> RoundTrips.url_through("postgresql://postgres@127.0.0.1:5432/db?search_path=t1", 6543)
'postgresql://postgres@127.0.0.1:6543/db?search_path=t1'
"""

from __future__ import annotations

import asyncio
import urllib.parse
from types import TracebackType


class RoundTrips:
    """``async with RoundTrips(url) as proxy``: ``proxy.url`` reaches the server of ``url`` through the
    proxy; ``proxy.count`` is the round trips of every connection through it so far."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._url = url
        self.count = 0
        self.url = url
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    @staticmethod
    def url_through(url: str, port: int) -> str:
        """``url`` with its port replaced (the proxy's)."""
        parts = urllib.parse.urlsplit(url)
        user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urllib.parse.urlunsplit(parts._replace(netloc=f"{user}{parts.hostname}:{port}"))

    async def __aenter__(self) -> RoundTrips:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = self.url_through(self._url, port)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        assert self._server is not None
        self._server.close()
        for pipe in self._pipes:
            pipe.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(*self.target)
        answered = [True]  # the client speaks first: its first message starts a round trip

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter, from_client: bool) -> None:
            try:
                while data := await source.read(65536):
                    if from_client:
                        if answered[0]:
                            self.count += 1
                            answered[0] = False
                    else:
                        answered[0] = True
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                sink.close()

        for task in (
            asyncio.ensure_future(pipe(client_in, server_out, True)),
            asyncio.ensure_future(pipe(server_in, client_out, False)),
        ):
            self._pipes.add(task)
