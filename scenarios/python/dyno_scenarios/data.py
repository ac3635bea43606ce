"""The data of the database scenarios (scenarios/src/data/*.js), and what every Python SUT's clients share.

The world table and the Redis key, the variables that name the data sources (REDIS_URL, SQLITE_PATH,
DATABASE_URL, PG_POOL_SIZE), the errors that name them, and the read-only stdlib sqlite3 connection, which
is the same in a synchronous and an asynchronous SUT. The Redis and PostgreSQL clients are the SUT's own
(redis-py and psycopg for a WSGI SUT, their asyncio counterparts for an ASGI one).
"""

import random
import re
import sqlite3
from pathlib import Path
from typing import NamedTuple

WORLD_ROW_COUNT = 10_000
REDIS_MESSAGE_KEY = "dyno:message"
WORLD_QUERY_SQLITE = "SELECT id, randomnumber FROM world WHERE id = ?"
WORLD_QUERY_POSTGRES_DOLLAR = "SELECT id, randomnumber FROM world WHERE id = $1"
WORLD_QUERY_POSTGRES_PYFORMAT = "SELECT id, randomnumber FROM world WHERE id = %s"
DEFAULT_PG_POOL_SIZE = 10
# How long opening a connection may take before the SUT gives up (and does not start).
CONNECT_TIMEOUT_SEC = 5


def random_world_id():
    """A uniformly random id in 1..WORLD_ROW_COUNT: a new row for every request."""
    return random.randint(1, WORLD_ROW_COUNT)


def world_row(row):
    """`(id, randomnumber)` from a driver as the response body `{id, randomNumber}`."""
    if row is None:
        raise LookupError("no world row for that id: the world table is not seeded")
    return {"id": row[0], "randomNumber": row[1]}


class DataEnv(NamedTuple):
    """The data sources the environment names; a variable that is absent or empty is None."""

    redis_url: "str | None"
    sqlite_path: "str | None"
    database_url: "str | None"
    pg_pool_size: int


_WHOLE_NUMBER = re.compile(r"[0-9]+")


def read_data_env(env):
    """REDIS_URL, SQLITE_PATH, DATABASE_URL and PG_POOL_SIZE (default 10), checked once, at start."""
    raw_pool_size = env.get("PG_POOL_SIZE")
    pool_size = DEFAULT_PG_POOL_SIZE
    if raw_pool_size:
        if not _WHOLE_NUMBER.fullmatch(raw_pool_size) or int(raw_pool_size) < 1:
            raise ValueError(f"PG_POOL_SIZE must be a whole number ≥ 1, got {raw_pool_size!r}")
        pool_size = int(raw_pool_size)
    return DataEnv(
        redis_url=env.get("REDIS_URL") or None,
        sqlite_path=env.get("SQLITE_PATH") or None,
        database_url=env.get("DATABASE_URL") or None,
        pg_pool_size=pool_size,
    )


def shown_url(url):
    """The URL with its password masked, for error messages."""
    return re.sub(r"//([^:@/]+):[^@/]*@", r"//\1:***@", url)


def not_configured(variable):
    """What a database route raises when its variable is absent: the framework answers 500."""
    return RuntimeError(f"{variable} is not set: this SUT was started without that data source")


def unavailable(variable):
    """A data source whose variable is absent: calling it raises `not_configured(variable)`."""
    def call():
        raise not_configured(variable)
    return call


def unavailable_async(variable):
    """`unavailable` for a data source that is awaited."""
    async def call():
        raise not_configured(variable)
    return call


def unreachable(variable, url, error):
    """The error that stops a SUT at start when the first round trip of a client fails, naming the variable."""
    return RuntimeError(f"cannot reach {variable}={shown_url(url)}: {str(error) or repr(error)}")


def open_sqlite(path):
    """One read-only stdlib sqlite3 connection to SQLITE_PATH, usable from any thread.

    Requests may run on another thread than the one that opened it (gunicorn's gthread worker, FastAPI's
    thread pool), hence check_same_thread=False; SQLite itself serializes access."""
    try:
        return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error as error:
        raise RuntimeError(f"cannot open SQLITE_PATH={path}: {error}") from error


def sqlite_world(database):
    """One query of the sqlite scenario for a random id, on a connection from `open_sqlite`."""
    return world_row(database.execute(WORLD_QUERY_SQLITE, (random_world_id(),)).fetchone())
