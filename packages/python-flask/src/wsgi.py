"""The WSGI entry gunicorn loads in each worker process: the data clients of this process, then the app."""

import os

from app import create_app
from data_sources import open_data_sources

app = create_app(open_data_sources(os.environ))
