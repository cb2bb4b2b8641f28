"""The entry point: ``flask --app app run``."""

from referee.web import create_app

app = create_app()
