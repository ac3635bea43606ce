"""The ASGI entry uvicorn imports in each worker process: the app, with this process's environment."""

import os

from app import create_app

app = create_app(os.environ)
