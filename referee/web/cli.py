"""``flask translate extract|update|compile``: the catalog work around pybabel."""

from __future__ import annotations

import click
from babel.messages.frontend import CommandLineInterface
from flask import Flask

from .settings import ROOT

POT = ROOT / "messages.pot"
TRANSLATIONS = ROOT / "translations"


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "_l", "--project", "rummy-companion",
            "--no-location", "--sort-output", "-o", str(POT), str(ROOT))


def update() -> None:
    extract()
    pybabel("update", "-i", str(POT), "-d", str(TRANSLATIONS), "--no-fuzzy-matching", "--ignore-obsolete")


def compile_all() -> None:
    pybabel("compile", "-d", str(TRANSLATIONS))


def init_app(app: Flask) -> None:
    @app.cli.group()
    def translate() -> None:
        """Translation and localization commands."""

    @translate.command("extract")
    def extract_cmd() -> None:
        """Extract every marked string into messages.pot."""
        extract()

    @translate.command("update")
    def update_cmd() -> None:
        """Extract, then merge new strings into every language's catalog."""
        update()

    @translate.command("compile")
    def compile_cmd() -> None:
        """Compile the catalogs (.po → .mo)."""
        compile_all()

    @translate.command("init")
    @click.argument("lang")
    def init_cmd(lang: str) -> None:
        """Start a catalog for a new language."""
        extract()
        pybabel("init", "-i", str(POT), "-d", str(TRANSLATIONS), "-l", lang)

