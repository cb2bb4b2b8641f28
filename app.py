"""The entry point: ``flask --app app run``, and the production server's ``app:app`` (``referee/web/server.py``)."""

import gc

from referee.web import create_app, warm

app = create_app()
warm(app)  # its templates compiled and its languages read before the first phone asks

# What the app is made of at start (modules, classes, compiled templates: about 100,000 objects) lives as long
# as the process: set it aside from the garbage collector, whose full passes over it stopped every thread of a
# worker for 55-95 ms a few times a minute under load, and now pass over what requests left behind only
# (docs/bench.md).
gc.collect()
gc.freeze()
