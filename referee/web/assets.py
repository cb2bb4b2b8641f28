"""Static files with versioned URLs: ``url_for('static', filename=…)`` adds ``?v=<content hash>``, and a request
that names the current version may be cached for a year. A changed file gets a new URL, so a phone (and the
service worker, whose own script carries the versions of the files it keeps) never holds on to an old one.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, request, url_for

YEAR = 365 * 24 * 3600
# what the service worker keeps from its first visit, so that the rules pages and a game's page work offline
SHELL = ("style.css", "app.js", "htmx-2.0.11.min.js", "icons/icon-32.png", "outbox.js", "picker.js", "scoreboard.js",
         "table.js")


@lru_cache(maxsize=128)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def version(filename: str) -> str | None:
    """The version of a static file: a hash of its content (read again when the file changes)."""
    folder = current_app.static_folder
    if folder is None:
        return None
    path = Path(folder) / filename
    try:
        stat = path.stat()
    except OSError:
        return None
    if not path.is_file():
        return None
    return _digest(str(path), stat.st_mtime_ns, stat.st_size)


def _offline_words(templates: str, catalogs: str) -> str:
    """A hash of what the offline page is made of: its template and the compiled catalogs."""
    h = hashlib.sha256()
    for f in [Path(templates) / "offline.html", *sorted(Path(catalogs).glob("*/LC_MESSAGES/messages.mo"))]:
        try:
            h.update(f.read_bytes())
        except OSError:  # (a catalog not compiled yet: the page falls back to English words)
            pass
    return h.hexdigest()[:12]


def service_worker_script() -> str:
    """``static/sw.js`` behind the versioned URLs of the files it keeps and a cache name made of their versions:
    when a file changes, the script changes, the browser installs it, and it drops the old cache."""
    shell = [url_for("static", filename=name) for name in SHELL]
    offline = {code: url_for("pages.offline", code=code) for code in current_app.config["LANGUAGES"]}
    # the offline page's words change with the templates and catalogs, not with a static file: in the name too
    words = _offline_words(str(current_app.template_folder), current_app.config["BABEL_TRANSLATION_DIRECTORIES"])
    name = "static-" + hashlib.sha256(" ".join(shell + [words]).encode()).hexdigest()[:12]
    folder = Path(current_app.static_folder or "")
    head = (f"const STATIC = {json.dumps(name)};\nconst SHELL = {json.dumps(shell)};\n"
            f"const OFFLINE = {json.dumps(offline)};\n")
    return head + (folder / "sw.js").read_text(encoding="utf-8")


def init_app(app: Flask) -> None:
    @app.url_defaults
    def _versioned(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            v = version(values["filename"])
            if v:
                values["v"] = v

    @app.after_request
    def _long_cache(resp: Response) -> Response:
        if request.endpoint == "static" and resp.status_code == 200:
            asked = request.args.get("v")
            if asked and asked == version(str((request.view_args or {}).get("filename", ""))):
                resp.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
                # never asked again, so nothing to check it against; and a script or a style sheet is not saved
                # as a file: a first visit is half a dozen of these, on a weak signal
                for name in ("ETag", "Last-Modified", "Content-Disposition"):
                    resp.headers.pop(name, None)
        return resp
