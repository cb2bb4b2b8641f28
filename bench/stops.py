"""``make stops``: how far a reader travels to follow two requests through the code.

A saved hand, from the form's POST (``scoreboard/routes.record``) to the stored penalty (the end of
``services._record``), and a meld check through the JSON API (``POST /api/v1/check``, from its view to its
answer). Counted on the running code, as a reader would follow it:

- a *stop* is each move to another file: into a function of the project read for the first time (called from
  the project's code: a library's callback, such as a connection pool's hook, is not followed, nor what it
  calls; the reader first goes to where the call is written), or back into the file of its caller when that
  first reading returns; comprehensions, lambdas and dunder methods are read with the function that holds
  them;
- a *return* is a stop into a file already left.

Each request is made once before it is followed (nothing is read for the first time only because a cache is
empty). Prints the counts and the path.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_migrate import upgrade  # noqa: E402

from referee.web import create_app  # noqa: E402

ROOT = str(Path(__file__).resolve().parents[1] / "referee")


def walk(request: Callable[[], Any], start: tuple[str, str], end: tuple[str, str]) -> list[str]:
    """The files a reader passes through following ``request`` from the function ``start`` (file, name) to the
    return of ``end``."""
    path: list[str] = []
    first: dict[tuple[str, str, int], int] = {}
    followed: set[int] = set()  # the frames on the reader's path: the start's, and those its code calls
    reading: set[int] = set()  # the frames of functions being read for the first time, until they return
    state = {"on": False, "done": False}

    def rel(filename: str) -> str:
        return os.path.relpath(filename, os.path.dirname(ROOT))

    def follow(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if state["done"] or not code.co_filename.startswith(ROOT):
            return
        where = (rel(code.co_filename), code.co_name)
        if event == "call" and where == start:
            state["on"] = True
        if not state["on"]:
            return
        caller = frame.f_back.f_code.co_filename if frame.f_back else ""
        key = (code.co_filename, code.co_name, code.co_firstlineno)
        if event == "call" and (where == start or (frame.f_back is not None and id(frame.f_back) in followed)):
            followed.add(id(frame))
        if id(frame) not in followed:
            return
        read = not code.co_name.startswith(("<", "__")) and (caller.startswith(ROOT) or where == start)
        if event == "call" and read and key not in first:
            first[key] = id(frame)
            reading.add(id(frame))
            if path and caller.startswith(ROOT) and path[-1] != rel(caller):
                path.append(rel(caller))  # (the reader is where the call is written)
            if not path or path[-1] != where[0]:
                path.append(where[0])
        elif event == "return" and id(frame) in reading:  # (the first call's own frame: ids are reused)
            reading.discard(id(frame))
            if caller.startswith(ROOT) and where != end and path[-1] != rel(caller):
                path.append(rel(caller))
        if event == "return" and where == end:
            state["done"] = True
        if event == "return":
            followed.discard(id(frame))

    sys.setprofile(follow)
    try:
        request()
    finally:
        sys.setprofile(None)
    return path


def report(label: str, path: list[str]) -> None:
    returns = sum(1 for i, f in enumerate(path) if f in path[:i])
    print(f"{label}: {len(path)} stops in {len(set(path))} files, {returns} of them returns into a file already left")
    print("    " + " > ".join(f.removeprefix("referee/") for f in path))


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "SECRET_KEY": "stops",
                      "DATABASE_URL": f"sqlite:///{folder / 'stops.sqlite3'}"})
    with app.app_context():
        upgrade()
    client = app.test_client()
    game: dict[str, Any] = client.post("/api/v1/games", json={"ruleset": "liverpool",
                                                               "players": ["Ann", "Ben", "Cy", "Dee"]}).json or {}
    token = game["edit_token"]

    def save(hand: int) -> Callable[[], Any]:
        return lambda: client.post(f"/g/{token}/hand", data={"hand": hand, "out": 0, "cards_1": "7H KD",
                                                              "cards_2": "2C", "cards_3": "A"})

    save(1)()
    report("a saved hand (form POST to the stored penalty)",
           walk(save(2), ("referee/web/scoreboard/routes.py", "record"),
                ("referee/web/scoreboard/services.py", "_record")))
    body = {"ruleset": "liverpool", "hand": 1, "melds": [["7H", "7D", "7S"], ["9C", "9D", "JK"]]}

    def check() -> Any:
        return client.post("/api/v1/check", json=body)

    check()
    report("a meld check (JSON API)",
           walk(check, ("referee/web/api/routes.py", "wrapped"), ("referee/web/api/routes.py", "wrapped")))


if __name__ == "__main__":
    main()
