"""The data sources of the database scenarios for a synchronous (WSGI) SUT.

Opened once per worker process at start (gunicorn loads the app in each worker, after the fork, so no
connection is shared between processes). Each client makes one round trip first, so a wrong URL stops
the SUT at start with a message naming the variable. A source whose variable is absent raises when
called, so the framework answers 500 and verification says why. What is not about the clients (the
variables, the world rows, the errors, the sqlite3 connection) is the shared `dyno_scenarios.data`.
"""

import psycopg
import redis
from psycopg_pool import ConnectionPool

from dyno_scenarios.data import (
    CONNECT_TIMEOUT_SEC, REDIS_MESSAGE_KEY, WORLD_QUERY_POSTGRES_PYFORMAT, open_sqlite, random_world_id,
    read_data_env, sqlite_world, unavailable, unreachable, world_row,
)


class DataSources:
    """`redis_message()`, `sqlite_world()`, `postgres_world()` and `close()`, the same work as the JS SUTs."""

    def __init__(self):
        self.redis_message = unavailable("REDIS_URL")
        self.sqlite_world = unavailable("SQLITE_PATH")
        self.postgres_world = unavailable("DATABASE_URL")
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
        raise unreachable(variable, url, error) from error


def open_data_sources(env):
    """Opens a client for each variable the environment names: REDIS_URL (redis-py), SQLITE_PATH (sqlite3,
    read-only), DATABASE_URL (a psycopg 3 pool of at most PG_POOL_SIZE connections)."""
    config = read_data_env(env)
    sources = DataSources()

    if config.redis_url:
        client = redis.Redis.from_url(config.redis_url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_SEC)
        sources._closers.append(client.close)
        _checked("REDIS_URL", config.redis_url, client.ping, sources)
        sources.redis_message = lambda: {"message": client.get(REDIS_MESSAGE_KEY)}

    if config.sqlite_path:
        # One read-only connection per worker, used on gunicorn's worker thread.
        database = open_sqlite(config.sqlite_path)
        sources._closers.append(database.close)
        sources.sqlite_world = lambda: sqlite_world(database)

    if config.database_url:
        database_url = config.database_url

        def probe():
            with psycopg.connect(database_url, connect_timeout=CONNECT_TIMEOUT_SEC) as connection:
                connection.execute("SELECT 1")
        _checked("DATABASE_URL", database_url, probe, sources)
        # autocommit: one statement per request, as the pg Pool of the JS SUTs sends, not BEGIN/SELECT/COMMIT.
        pool = ConnectionPool(database_url, min_size=1, max_size=config.pg_pool_size, kwargs={"autocommit": True}, open=False)
        sources._closers.append(pool.close)
        _checked("DATABASE_URL", database_url, lambda: pool.open(wait=True, timeout=CONNECT_TIMEOUT_SEC), sources)

        def postgres_world():
            with pool.connection() as connection:
                return world_row(connection.execute(WORLD_QUERY_POSTGRES_PYFORMAT, (random_world_id(),)).fetchone())
        sources.postgres_world = postgres_world

    return sources
