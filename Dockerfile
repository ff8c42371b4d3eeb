# The Rommé bot in a container. Build: docker build -t romme-bot .
# Run:   docker run -d --env-file .env -v romme-data:/data --name romme romme-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/romme.db

WORKDIR /app

# The dependencies are pinned in pyproject.toml.
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir . \
    && useradd --system --no-create-home --uid 10001 romme \
    && mkdir /data \
    && chown romme /data

# Not root: the bot only needs to write its database. (A numeric id, so the host can resolve it.)
USER 10001
# The bot runs in its volume, the one folder it may write: a relative DATABASE_PATH in the env file
# (romme.db, as .env.example had it before), or an empty one (the default, romme.db), is in /data
# too, never in /app, which the user cannot write.
WORKDIR /data
VOLUME /data

# Health and metrics (/healthz, /metrics) on every interface of the container; the check asks
# /healthz from inside (503 or no answer: unhealthy), and passes if HEALTH_PORT is set empty (off).
ENV HEALTH_PORT=8080 HEALTH_HOST=0.0.0.0
HEALTHCHECK --interval=30s --timeout=5s --start-period=2m --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; p = os.environ.get('HEALTH_PORT', '').strip(); p and u.urlopen('http://127.0.0.1:%s/healthz' % p, timeout=4)"]

# romme-bot, not python -m bot: python -m would put the working folder, the volume, first on the
# module path. It stops cleanly on SIGTERM (docker stop): the saves finish, the database is closed.
CMD ["romme-bot"]
