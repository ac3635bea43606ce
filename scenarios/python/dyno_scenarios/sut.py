"""Where a SUT listens, how many workers it runs, what protocol it serves, and how it says it is ready
(scenarios/src/sut/*.js)."""

import re
import ssl

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


# The values of PROTOCOL, as scenarios/src/contract/protocols.js lists them.
SERVED_PROTOCOLS = ("http1", "tls", "h2", "h2c")


def protocol(env, served=SERVED_PROTOCOLS):
    """PROTOCOL: what the SUT serves on its port (http1, the default when absent or empty, tls, h2, h2c).

    Raises ValueError, naming PROTOCOL, for a value outside the contract or one this SUT does not serve."""
    raw = env.get("PROTOCOL") or "http1"
    if raw not in SERVED_PROTOCOLS:
        raise ValueError(f"PROTOCOL must be one of {', '.join(SERVED_PROTOCOLS)}, got {raw!r}")
    if raw not in served:
        raise ValueError(f"PROTOCOL={raw} is not served by this SUT, which serves {', '.join(served)} "
                         "(its package.json says why in dyno.unsupportedScenarios)")
    return raw


def tls_files(env):
    """TLS_CERT_FILE and TLS_KEY_FILE, the PEM files of the run's certificate, checked to load together.

    Returns (certfile, keyfile); raises ValueError naming the variable."""
    files = []
    for variable, what in (("TLS_CERT_FILE", "certificate"), ("TLS_KEY_FILE", "private key")):
        value = env.get(variable)
        if not value:
            raise ValueError(f"{variable} must name the PEM file of the {what} (PROTOCOL={env.get('PROTOCOL')} serves TLS), "
                             "but it is not set")
        files.append(value)
    certfile, keyfile = files
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as error:
        raise ValueError(f"cannot load the certificate TLS_CERT_FILE={certfile} with the key TLS_KEY_FILE={keyfile}: {error}") from error
    return certfile, keyfile


def ready_line(port, served="http1"):
    """The one stdout line the harness waits for: `{"event":"ready","port":<bound port>,"protocol":<served>}`."""
    if port <= 0:
        raise ValueError(f"the ready line needs the bound port, got {port}")
    if served not in SERVED_PROTOCOLS:
        raise ValueError(f"the ready line needs a protocol of {', '.join(SERVED_PROTOCOLS)}, got {served!r}")
    return '{"event":"ready","port":%d,"protocol":"%s"}\n' % (port, served)
