"""Boards drawn once for each version of a game on a machine, not once for each process that is asked.

After a save every phone at the table fetches the new board. Drawing one costs several times what answering
a poll does (the game read again, its state worked out, the templates drawn), and each server worker drew
its own: at 100 tables on two workers, board draws were 40% of the servers' CPU (``docs/bench.md``). Now the
first worker to draw a version writes it to a file that every worker on the machine reads; a process keeps
the boards it last used in memory in front of that.

Nothing here can show an old board: a board is only ever looked up by its ETag, which holds the game's
version as the database holds it now (read by the same request), the language, the kind of link and the
release. A file holds the tag it was drawn for on its first line and is used only if that tag is the one
asked for. Files are a cache: one missing, half written by another process or left by another release is
drawn again. Several servers on one database each keep their own (nothing has to be shared between them).

The folder is in the machine's shared memory where it has one (``board_folder``): a board's file is created,
renamed and the one before it removed at each new version, and on a disk each of those is a journaled write:
profiled under load, writing the files took more of the servers' time than drawing the boards
(``docs/bench.md``).

What differs from reader to reader is not in the cache: a board is drawn with marks where the link's token
and the reader's form token go, and they are put in on the way out (an edit link's token is never written to
a file: the database itself keeps only its hash).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from pathlib import Path

MEMORY = Path("/dev/shm")  # the machine's shared memory as a file system (Linux), where there is one
END = "\n<!-- end -->"  # the last line of a file written whole
SWEEP_EVERY = 3600.0  # seconds between two sweeps of a process through the files
KEEP_FOR = 86400.0  # a file not written for this long goes (its game has not changed for a day)


@lru_cache(maxsize=4)
def marks(secret: str) -> tuple[str, str]:
    """What stands in a kept board for the link's token and for the reader's form token: the same in every
    process that shares the secret key (the files are shared), and no text a player could type on purpose."""
    def mark(what: bytes) -> str:
        return "m" + hmac.new(secret.encode(), what, hashlib.sha256).hexdigest()[:31]
    return mark(b"board link token"), mark(b"board form token")


def shared_memory(memory: Path = MEMORY) -> Path | None:
    """The machine's shared memory as a folder, if it has one (also where the benchmarks keep boards)."""
    return memory if memory.is_dir() else None


def board_folder(configured: str | None, instance_path: str, memory: Path = MEMORY) -> tuple[Path, bool]:
    """Where a machine's workers keep boards: ``BOARD_DIR`` if set; else a folder of this user's own in the
    machine's shared memory, one for each instance folder (so every worker of one server finds the same, and
    two apps on a machine do not mix); else ``boards`` in the instance folder. The folder in shared memory is
    used only if it is this user's and nobody else's to read or write (shared memory is open to every user of
    the machine, who could otherwise make it first, read the boards or put boards of their own in it). Returns
    the folder, and whether it is that folder in shared memory (``BoardFiles``' ``private``)."""
    if configured:
        return Path(configured), False
    fallback = Path(instance_path) / "boards", False
    if shared_memory(memory) is None:
        return fallback
    name = hashlib.sha256(os.path.abspath(instance_path).encode()).hexdigest()[:16]
    folder = memory / f"rummy-boards-{os.geteuid()}-{name}"
    try:
        _own_folder(folder)
    except OSError:
        return fallback
    return folder, True


def _own_folder(folder: Path | str) -> None:
    """Makes the folder (this user's only) if it is not there; raises OSError if what is there is not a folder
    of this user's that nobody else may read or write."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    made = os.lstat(folder)
    if not stat.S_ISDIR(made.st_mode) or made.st_uid != os.geteuid() or made.st_mode & 0o077:
        raise PermissionError(f"{folder} is not this user's own folder")


class Boards:
    """What a process keeps in memory of boards drawn, the most recently used last, at most ``size``: boards by
    ETag, or parts of boards by what they were drawn from (``routes.drawn_history``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._drawn: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tag: Hashable) -> str | None:
        with self._lock:
            html = self._drawn.get(tag)
            if html is not None:
                self._drawn.move_to_end(tag)
            return html

    def clear(self) -> None:
        with self._lock:
            self._drawn.clear()

    def put(self, tag: Hashable, html: str) -> None:
        with self._lock:
            self._drawn[tag] = html
            self._drawn.move_to_end(tag)
            while len(self._drawn) > self.size:
                self._drawn.popitem(last=False)


class BoardFiles:
    """Boards in a folder every process of the machine reads: a folder for each game, language and kind of link,
    holding the board of the latest version drawn, named by its ETag, whose first line is that tag.

    A new board gets a new name and the older ones in its folder go: renaming a file over another makes the
    file system write the new one out first (about 0.4 ms on a quiet disk, several under load), while a new name
    costs a quarter of that."""

    def __init__(self, folder: Path, private: bool = False) -> None:
        self.folder = folder
        self.private = private  # made again only as this user's own folder (``board_folder``)
        self._swept = 0.0

    def _path(self, tag: str, game_id: str, lang: str, can_edit: bool) -> tuple[str, str]:
        """The board's folder and its file's name (plain strings: a board is looked for on every changed poll)."""
        board = hashlib.sha256(f"{game_id}\0{lang}\0{int(can_edit)}".encode()).hexdigest()[:32]
        return os.path.join(self.folder, board), hashlib.sha256(tag.encode()).hexdigest()[:32] + ".html"

    def get(self, tag: str, game_id: str, lang: str, can_edit: bool) -> str | None:
        folder, name = self._path(tag, game_id, lang, can_edit)
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
        except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
            return None
        first, _, html = text.partition("\n")
        return html[:-len(END)] if first == tag and html.endswith(END) else None

    def put(self, tag: str, game_id: str, lang: str, can_edit: bool, html: str) -> None:
        """Written whole under a name of its own, then given its name: a reader finds it whole or not at all."""
        folder, name = self._path(tag, game_id, lang, can_edit)
        path = os.path.join(folder, name)
        part = f"{path[:-5]}.{os.getpid()}.{threading.get_ident()}.part"
        try:
            try:
                written = open(part, "w", encoding="utf-8")
            except FileNotFoundError:  # the game's first board in this language (its folder made only then),
                # or a folder cleared under it (shared memory is cleared when the machine restarts)
                if self.private:
                    _own_folder(self.folder)
                os.makedirs(folder, mode=0o700, exist_ok=True)
                written = open(part, "w", encoding="utf-8")
            with written as f:
                f.write(f"{tag}\n{html}{END}")
            os.rename(part, path)
            for entry in os.scandir(folder):  # the boards of older versions (and a part another left)
                if entry.name != name and not entry.name.endswith(".part"):
                    os.unlink(entry.path)
        except OSError:  # a full disk, a folder not writable, an older board gone already: the board is answered
            try:
                os.unlink(part)
            except OSError:
                pass
        self._sweep()

    def _sweep(self) -> None:
        """Once an hour a process clears the folders of games not changed for a day (and parts left behind)."""
        now = time.time()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        try:
            folders = list(os.scandir(self.folder))
        except OSError:
            return
        for folder in folders:
            try:
                if now - folder.stat().st_mtime > KEEP_FOR:
                    for entry in os.scandir(folder.path):
                        os.unlink(entry.path)
                    os.rmdir(folder.path)
            except OSError:
                pass
