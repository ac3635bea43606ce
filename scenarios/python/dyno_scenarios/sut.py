"""Where a SUT listens, how many workers it runs, and how it says it is ready (scenarios/src/sut/*.js)."""

import re

_WHOLE_NUMBER = re.compile(r"[0-9]+")


def listen_options(env):
    """PORT (default 0, an ephemeral port) and HOST (default 127.0.0.1), checked like the JS SUTs do.

    Returns (host, port)."""
    raw_port = env.get("PORT") or "0"
    if not _WHOLE_NUMBER.fullmatch(raw_port) or int(raw_port) > 65535:
        raise ValueError(f"PORT must be a whole number from 0 to 65535, got {raw_port!r}")
    return env.get("HOST") or "127.0.0.1", int(raw_port)


def workers(env):
    """WORKERS (default 1), the number of server processes the harness asks for."""
    raw = env.get("WORKERS") or "1"
    if not _WHOLE_NUMBER.fullmatch(raw) or int(raw) < 1:
        raise ValueError(f"WORKERS must be a whole number ≥ 1, got {raw!r}")
    return int(raw)


def ready_line(port):
    """The one stdout line the harness waits for: `{"event":"ready","port":<bound port>}`."""
    if port <= 0:
        raise ValueError(f"the ready line needs the bound port, got {port}")
    return '{"event":"ready","port":%d}\n' % port
