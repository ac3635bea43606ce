"""Starts the FastAPI SUT under uvicorn and prints the ready line once it accepts requests.

What `uvicorn asgi:app --host HOST --port PORT --workers N --no-access-log` does (uvicorn.run), with one
addition: uvicorn does not print the bound port as JSON, so this script announces it.
- one worker: uvicorn's Server in this process; the line goes out right after its startup (lifespan done,
  listening socket serving), with the port the socket really bound (PORT=0 picks a free one);
- WORKERS=N > 1: uvicorn's own supervisor, which binds the socket here and spawns N worker processes; the
  line goes out once every worker answers uvicorn's readiness ping (its server has started).
"""

import os
import sys

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess

from dyno_scenarios.sut import listen_options, protocol, ready_line, tls_files, workers as workers_from_env

APP = "asgi:app"
# How long each worker may take to import the app and open its data clients before it counts as failed.
WORKER_READY_TIMEOUT_SEC = 60


# What uvicorn serves (README.md, "Protocols"): HTTP/1.1, with WebSocket, and HTTP/1.1 over TLS (its ssl_certfile and
# ssl_keyfile). Not HTTP/2: uvicorn's answers HTTP/1.1 on the same port.
SERVED = ("http1", "tls")


def announce(port):
    sys.stdout.write(ready_line(port, protocol(os.environ, SERVED)))
    sys.stdout.flush()


class AnnouncingServer(uvicorn.Server):
    async def startup(self, sockets=None):
        await super().startup(sockets=sockets)
        if self.started:
            announce(self.servers[0].sockets[0].getsockname()[1])


class AnnouncingMultiprocess(Multiprocess):
    announced = False

    def init_processes(self):
        super().init_processes()
        for process in self.processes:
            if not process.wait_until_ready(WORKER_READY_TIMEOUT_SEC, self.should_exit):
                return  # a worker died at startup: the supervisor's loop sees it and stops
        announce(self.sockets[0].getsockname()[1])
        self.announced = True


def main():
    host, port = listen_options(os.environ)
    workers = workers_from_env(os.environ)
    try:
        tls = tls_files(os.environ) if protocol(os.environ, SERVED) == "tls" else None
    except ValueError as error:
        sys.stderr.write(f"{error}\n")
        sys.exit(1)
    ssl = {"ssl_certfile": tls[0], "ssl_keyfile": tls[1]} if tls else {}
    config = uvicorn.Config(APP, host=host, port=port, workers=workers, access_log=False, **ssl)
    if workers == 1:
        server = AnnouncingServer(config)
        server.run()
        if not server.started:
            sys.exit(STARTUP_FAILURE)
    else:
        supervisor = AnnouncingMultiprocess(config, sockets=[config.bind_socket()])
        supervisor.run()
        if not supervisor.announced:
            sys.exit(STARTUP_FAILURE)


if __name__ == "__main__":
    main()
