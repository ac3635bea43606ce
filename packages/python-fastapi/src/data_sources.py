"""The data sources of the database scenarios for an asynchronous (ASGI) SUT.

Opened once per worker process, in the app's lifespan startup, before uvicorn accepts connections; each
client makes one round trip first, so a wrong URL stops the SUT at start with a message naming the
variable. A source whose variable is absent raises when called, so the framework answers 500 and
verification says why. Closed in the lifespan shutdown (SIGTERM). What is not about the clients (the
variables, the world rows, the errors, the sqlite3 connection) is the shared `dyno_scenarios.data`.
"""

import asyncpg
import redis.asyncio

from dyno_scenarios.data import (
    CONNECT_TIMEOUT_SEC, REDIS_MESSAGE_KEY, WORLD_QUERY_POSTGRES_DOLLAR, open_sqlite, random_world_id, read_data_env,
    sqlite_world, unavailable, unavailable_async, unreachable, world_row,
)


class DataSources:
    """`await redis_message()`, `sqlite_world()` (blocking), `await postgres_world()` and `await close()`."""

    def __init__(self):
        self.redis_message = unavailable_async("REDIS_URL")
        self.sqlite_world = unavailable("SQLITE_PATH")
        self.postgres_world = unavailable_async("DATABASE_URL")
        self._closers = []

    async def close(self):
        for close in reversed(self._closers):
            try:
                await close()
            except Exception:  # closing is best effort: the process is exiting
                pass
        self._closers.clear()


NO_DATA_SOURCES = DataSources()


async def _checked(variable, url, probe, sources):
    try:
        await probe()
    except Exception as error:
        await sources.close()
        raise unreachable(variable, url, error) from error


async def open_data_sources(env):
    """Opens a client for each variable the environment names: REDIS_URL (redis-py's asyncio client),
    SQLITE_PATH (sqlite3, read-only), DATABASE_URL (an asyncpg pool of at most PG_POOL_SIZE connections)."""
    config = read_data_env(env)
    sources = DataSources()

    if config.redis_url:
        client = redis.asyncio.Redis.from_url(config.redis_url, decode_responses=True, socket_connect_timeout=CONNECT_TIMEOUT_SEC)
        sources._closers.append(client.aclose)
        await _checked("REDIS_URL", config.redis_url, client.ping, sources)

        async def redis_message():
            return {"message": await client.get(REDIS_MESSAGE_KEY)}
        sources.redis_message = redis_message

    if config.sqlite_path:
        # stdlib sqlite3 blocks, so the route is a plain `def` that FastAPI runs in its thread pool; the
        # one read-only connection is used from those threads.
        database = open_sqlite(config.sqlite_path)

        async def close_sqlite():
            database.close()
        sources._closers.append(close_sqlite)
        sources.sqlite_world = lambda: sqlite_world(database)

    if config.database_url:
        database_url = config.database_url
        pool = None

        async def connect():
            nonlocal pool
            # min_size=1: the first connection is the start-up round trip; the rest open on demand.
            pool = await asyncpg.create_pool(database_url, min_size=1, max_size=config.pg_pool_size, timeout=CONNECT_TIMEOUT_SEC)
            sources._closers.append(pool.close)
            await pool.fetchval("SELECT 1")
        await _checked("DATABASE_URL", database_url, connect, sources)

        async def postgres_world():
            return world_row(await pool.fetchrow(WORLD_QUERY_POSTGRES_DOLLAR, random_world_id()))
        sources.postgres_world = postgres_world

    return sources
