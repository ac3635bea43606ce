"""The work each route does, shared by the Python SUTs so that only the framework layer differs.

A line-for-line mirror of scenarios/src/work/*.js and the constants of scenarios/src/data/world.js: the
Python SUTs cannot import JavaScript, and verification checks every value against the JS contract, so a
drift here fails `dyno verify`. The same file sits in packages/python-flask and packages/python-fastapi.
"""

import random
import re

HELLO_TEXT = "Hello, World!"


def hello_message():
    """A fresh dict on every call, so a framework cannot serialize it once and cache the bytes."""
    return {"message": HELLO_TEXT}


FIBONACCI_N = 23


def fibonacci(n):
    """Naive recursion on purpose: the scenario measures a handler that holds the CPU."""
    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)


def fibonacci_result():
    """Computed on every call, never cached."""
    return {"n": FIBONACCI_N, "value": fibonacci(FIBONACCI_N)}


def route_params(user_id, post_id):
    return {"userId": user_id, "postId": post_id}


INTENTIONAL_ERROR_MESSAGE = "dyno: intentional error"


def error_or_ok(flag):
    """Raises when the flag is `1`, so the framework's own error handling must answer."""
    if flag == "1":
        raise RuntimeError(INTENTIONAL_ERROR_MESSAGE)
    return {"ok": True}


# The rules of the validation scenario (VALIDATION_RULES in JS).
TEXT_MIN_LENGTH = 5
_INTEGER_PATTERN = re.compile(r"-?[0-9]+")
_MAX_SAFE_INTEGER = 2**53 - 1


def validate_query(number, text):
    """The shared hand-written check (validateQuery in JS), for frameworks without a validator.

    Returns (value, None) or (None, message)."""
    if not isinstance(number, str) or not _INTEGER_PATTERN.fullmatch(number):
        return None, "`number` must be an integer"
    parsed = int(number)
    if abs(parsed) > _MAX_SAFE_INTEGER:
        return None, "`number` must be a safe integer"
    if not isinstance(text, str) or len(text) < TEXT_MIN_LENGTH:
        return None, f"`text` must be a string of at least {TEXT_MIN_LENGTH} characters"
    return (parsed, text), None


def validation_result(number, text):
    return {"number": number, "text": text}


# Twenty routes every SUT registers beside the contract routes (EXTRA_ROUTES in JS), `:name` parameters.
EXTRA_ROUTES = (
    "/api/v1/health",
    "/api/v1/status",
    "/api/v1/version",
    "/api/v1/products",
    "/api/v1/products/:id",
    "/api/v1/products/:id/reviews",
    "/api/v1/products/:id/reviews/:reviewId",
    "/api/v1/categories",
    "/api/v1/categories/:slug",
    "/api/v1/categories/:slug/products",
    "/api/v1/orders",
    "/api/v1/orders/:orderId",
    "/api/v1/orders/:orderId/items",
    "/api/v1/customers/:customerId",
    "/api/v1/customers/:customerId/orders",
    "/api/v1/search",
    "/api/v2/products/:id",
    "/api/v2/inventory/:sku",
    "/static/assets/:file",
    "/account/settings/notifications",
)

_PARAM_PATTERN = re.compile(r":([A-Za-z_][A-Za-z0-9_]*)")


def route_pattern(path, template):
    """Spells the `:name` parameters of an EXTRA_ROUTES path the way a router wants, e.g. `<{}>` or `{{{}}}`."""
    return _PARAM_PATTERN.sub(lambda match: template.format(match.group(1)), path)


def extra_route_body(path, params):
    return {"route": path, "params": dict(params)}


# The data of the database scenarios (scenarios/src/data/world.js).
WORLD_ROW_COUNT = 10_000
REDIS_MESSAGE_KEY = "dyno:message"
WORLD_QUERY_SQLITE = "SELECT id, randomnumber FROM world WHERE id = ?"
WORLD_QUERY_POSTGRES_DOLLAR = "SELECT id, randomnumber FROM world WHERE id = $1"
WORLD_QUERY_POSTGRES_PYFORMAT = "SELECT id, randomnumber FROM world WHERE id = %s"
DEFAULT_PG_POOL_SIZE = 10
CONNECT_TIMEOUT_SEC = 5


def random_world_id():
    """A uniformly random id in 1..WORLD_ROW_COUNT: a new row for every request."""
    return random.randint(1, WORLD_ROW_COUNT)


def world_row(row):
    """`(id, randomnumber)` from a driver as the response body `{id, randomNumber}`."""
    if row is None:
        raise LookupError("no world row for that id: the world table is not seeded")
    return {"id": row[0], "randomNumber": row[1]}


_WHOLE_NUMBER = re.compile(r"[0-9]+")


def pg_pool_size(env):
    raw = env.get("PG_POOL_SIZE")
    if not raw:
        return DEFAULT_PG_POOL_SIZE
    if not _WHOLE_NUMBER.fullmatch(raw) or int(raw) < 1:
        raise ValueError(f"PG_POOL_SIZE must be a whole number ≥ 1, got {raw!r}")
    return int(raw)


def shown_url(url):
    """The URL with its password masked, for error messages."""
    return re.sub(r"//([^:@/]+):[^@/]*@", r"//\1:***@", url)


def not_configured(variable):
    """What a database route raises when its variable is absent: the framework answers 500."""
    return RuntimeError(f"{variable} is not set: this SUT was started without that data source")


def listen_options(env):
    """PORT (default 0, an ephemeral port) and HOST (default 127.0.0.1), checked like the JS SUTs do."""
    raw_port = env.get("PORT") or "0"
    if not _WHOLE_NUMBER.fullmatch(raw_port) or int(raw_port) > 65535:
        raise ValueError(f"PORT must be a whole number from 0 to 65535, got {raw_port!r}")
    return env.get("HOST") or "127.0.0.1", int(raw_port)


def workers(env):
    raw = env.get("WORKERS") or "1"
    if not _WHOLE_NUMBER.fullmatch(raw) or int(raw) < 1:
        raise ValueError(f"WORKERS must be a whole number ≥ 1, got {raw!r}")
    return int(raw)


def ready_line(port):
    """The one stdout line the harness waits for: `{"event":"ready","port":<bound port>}`."""
    if port <= 0:
        raise ValueError(f"the ready line needs the bound port, got {port}")
    return '{"event":"ready","port":%d}\n' % port
