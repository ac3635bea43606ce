"""The work each route does (scenarios/src/work/*.js), so that only the framework layer differs between SUTs."""

import re

HELLO_TEXT = "Hello, World!"

# Where a SUT upgrades a GET to WebSocket; its work is to send each message back as it came (src/work/websocket.js).
WEBSOCKET_PATH = "/ws"


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
