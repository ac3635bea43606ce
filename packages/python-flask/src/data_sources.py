"""The data sources of the database scenarios for a synchronous (WSGI) SUT.

Opened once per worker process at start (gunicorn loads the app in each worker, after the fork, so no
connection is shared between processes). Each client makes one round trip first, so a wrong URL stops
the SUT at start with a message naming the variable. A source whose variable is absent raises when
called, so the framework answers 500 and verification says why.
"""

import sqlite3
from pathlib import Path

import psycopg
import redis
from psycopg_pool import ConnectionPool

from dyno_work import (
    CONNECT_TIMEOUT_SEC, REDIS_MESSAGE_KEY, WORLD_QUERY_POSTGRES_PYFORMAT, WORLD_QUERY_SQLITE, not_configured,
    pg_pool_size, random_world_id, shown_url, world_row,
)


def _unavailable(variable):
    def call():
        raise not_configured(variable)
    return call


class DataSources:
    """`redis_message()`, `sqlite_world()`, `postgres_world()` and `close()`, the same work as the JS SUTs."""

    def __init__(self):
        self.redis_message = _unavailable("REDIS_URL")
        self.sqlite_world = _unavailable("SQLITE_PATH")
        self.postgres_world = _unavailable("DATABASE_URL")
        self._closers = []

    def close(self):
        for close in reversed(self._closers):
            try:
                close()
            except Exception:  # closing is best effort: the process is exiting
                pass
        self._closers.clear()


NO_DATA_SOURCES = DataSources()


def _checked(variable, url, probe, sources):
    try:
        probe()
    except Exception as error:
        sources.close()
        raise RuntimeError(f"cannot reach {variable}={shown_url(url)}: {str(error) or repr(error)}") from error


def open_data_sources(env):
    """Opens a client for each variable the environment names: REDIS_URL (redis-py), SQLITE_PATH (sqlite3,
    read-only), DATABASE_URL (a psycopg 3 pool of at most PG_POOL_SIZE connections)."""
    sources = DataSources()
    pool_size = pg_pool_size(env)

    redis_url = env.get("REDIS_URL")
    if redis_url:
        client = redis.Redis.from_url(redis_url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_SEC)
        sources._closers.append(client.close)
        _checked("REDIS_URL", redis_url, client.ping, sources)
        sources.redis_message = lambda: {"message": client.get(REDIS_MESSAGE_KEY)}

    sqlite_path = env.get("SQLITE_PATH")
    if sqlite_path:
        # One read-only connection per worker; requests run on gunicorn's worker thread, not the thread
        # that opened it, hence check_same_thread=False (SQLite itself serializes access).
        try:
            database = sqlite3.connect(f"{Path(sqlite_path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        except sqlite3.Error as error:
            raise RuntimeError(f"cannot open SQLITE_PATH={sqlite_path}: {error}") from error
        sources._closers.append(database.close)
        sources.sqlite_world = lambda: world_row(database.execute(WORLD_QUERY_SQLITE, (random_world_id(),)).fetchone())

    database_url = env.get("DATABASE_URL")
    if database_url:
        def probe():
            with psycopg.connect(database_url, connect_timeout=CONNECT_TIMEOUT_SEC) as connection:
                connection.execute("SELECT 1")
        _checked("DATABASE_URL", database_url, probe, sources)
        # autocommit: one statement per request, as the pg Pool of the JS SUTs sends, not BEGIN/SELECT/COMMIT.
        pool = ConnectionPool(database_url, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=False)
        sources._closers.append(pool.close)
        _checked("DATABASE_URL", database_url, lambda: pool.open(wait=True, timeout=CONNECT_TIMEOUT_SEC), sources)

        def postgres_world():
            with pool.connection() as connection:
                return world_row(connection.execute(WORLD_QUERY_POSTGRES_PYFORMAT, (random_world_id(),)).fetchone())
        sources.postgres_world = postgres_world

    return sources
