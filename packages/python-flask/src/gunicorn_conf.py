"""gunicorn settings of the Flask SUT: where to listen, how many workers, the protocol served, and the ready line.

gunicorn's defaults otherwise (no access log, errors to stderr, no preload: each worker imports the app
and opens its own data clients). Read by `gunicorn --config src/gunicorn_conf.py`.
"""

import multiprocessing
import os
import sys

# `protocol` is also a gunicorn setting: imported under another name, so that gunicorn does not read it as one.
from dyno_scenarios.sut import listen_options, protocol as requested_protocol, ready_line, tls_files, workers as workers_from_env

# wsgi.py, app.py and data_sources.py sit beside this file; the workers import them from here.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

host, port = listen_options(os.environ)
# What gunicorn serves (README.md, "Protocols"): HTTP/1.1, over TLS with its certfile/keyfile, or HTTP/2 in cleartext
# with prior knowledge (its http_protocols and http2_cleartext). Not h2 over TLS: gunicorn serves HTTP/1.1 to a
# client that does not choose h2. A protocol it does not serve, or a certificate it cannot load, ends the start here.
try:
    served = requested_protocol(os.environ, ("http1", "tls", "h2c"))
    if served == "tls":
        certfile, keyfile = tls_files(os.environ)
except ValueError as error:
    sys.stderr.write(f"{error}\n")
    sys.exit(1)
if served == "h2c":
    http_protocols = "h2"
    http2_cleartext = "prior-knowledge"
bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
workers = workers_from_env(os.environ)
wsgi_app = "wsgi:app"
# The sync worker closes every connection after its response (gunicorn forces `Connection: close`);
# gthread with gunicorn's default of one thread keeps connections alive and still runs one request at a
# time per worker process. See README.md, "Deviations".
worker_class = "gthread"
# gunicorn ≥ 25 opens a management socket at $XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl by
# default: one fixed path per user, outside the package, that two SUT processes would contend for.
control_socket_disable = True

# Workers that have loaded the app, counted in memory shared across the fork; the one that completes the
# count prints the ready line, so it comes once every worker is about to accept requests.
_booted = None


def when_ready(server):
    global _booted
    _booted = multiprocessing.get_context("fork").Value("i", 0)


def post_worker_init(worker):
    with _booted.get_lock():
        _booted.value += 1
        if _booted.value != worker.cfg.workers:
            return
    sys.stdout.write(ready_line(worker.sockets[0].getsockname()[1], served))
    sys.stdout.flush()


def worker_exit(server, worker):
    app = getattr(worker, "wsgi", None)
    data = getattr(app, "extensions", {}).get("dyno.data")
    if data is not None:
        data.close()
