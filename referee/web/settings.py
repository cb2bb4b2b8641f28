"""The settings a server takes from its environment, read in one place and once: by ``create_app`` for the app,
by ``server`` and ``host`` for the command that serves it. ``docs/deploy.md`` says what each is for.

The app's own settings become Flask config keys (``Settings.config``), so that ``instance/config.py`` and a
test's configuration override them as they override any other key; nothing else in the web layer reads the
environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the project's folder: templates, translations, migrations
WRITE_LIMIT = "10 per second;120 per minute"  # a client's writes (``ratelimit``): a dozen tables behind one address
MAX_BODY = 256 * 1024  # bytes: the largest request (an imported game is at most ``IMPORT_MAX_BYTES``)


def _number(environ: Mapping[str, str], name: str, default: int) -> int:
    text = environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit():
        raise SystemExit(f"{name}={text!r}: a whole number is expected")
    return int(text)


@dataclass(frozen=True)
class Settings:
    secret_key: str | None = None  # else one generated into the instance folder (``instance_secret``)
    database_url: str | None = None  # else SQLite in the instance folder
    public_url: str | None = None  # where every link given out points (``public.external_url``)
    trusted_hosts: tuple[str, ...] | None = None  # the Host headers answered (Flask's ``TRUSTED_HOSTS``)
    write_limit: str = WRITE_LIMIT  # ``RATE_LIMIT_WRITES``
    write_limit_on: bool = True  # ``RATE_LIMIT=off`` turns it off
    max_body: int = MAX_BODY  # ``MAX_CONTENT_LENGTH``
    trust_proxy: int = 0  # proxies in front whose X-Forwarded-* headers are trusted (``TRUST_PROXY``: 1 or a count)
    https: bool = False  # served over HTTPS only: cookies marked Secure
    pool_size: int = 10  # each server process's database connections (``DB_POOL_SIZE``)
    max_overflow: int = 5  # and how many more a burst may open (``DB_MAX_OVERFLOW``)
    host: str | None = None  # the server's address (``HOST``; ``make table``: this machine's address on the LAN)
    port: int = 8000
    workers: int | None = None  # server processes (``WORKERS``; ``server.WORKERS``)
    threads: int | None = None  # Python threads in each (``THREADS``; ``server.THREADS``)
    access_log: bool = False  # ``ACCESS_LOG=1``: a line for each request (game links masked)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        hosts = [h.strip() for h in env.get("TRUSTED_HOSTS", "").split(",") if h.strip()]
        proxy = env.get("TRUST_PROXY", "").strip()
        return cls(
            secret_key=env.get("SECRET_KEY") or None,
            database_url=env.get("DATABASE_URL") or None,
            public_url=env.get("PUBLIC_URL") or None,
            trusted_hosts=tuple(hosts) or None,
            write_limit=env.get("RATE_LIMIT_WRITES") or WRITE_LIMIT,
            write_limit_on=env.get("RATE_LIMIT", "on") != "off",
            max_body=_number(env, "MAX_CONTENT_LENGTH", MAX_BODY),
            trust_proxy=(int(proxy) if proxy.isdigit() else 1) if proxy else 0,
            https=bool(env.get("HTTPS")),
            pool_size=_number(env, "DB_POOL_SIZE", 10),
            max_overflow=_number(env, "DB_MAX_OVERFLOW", 5),
            host=env.get("HOST") or None,
            port=_number(env, "PORT", 8000),
            workers=_number(env, "WORKERS", 0) or None,
            threads=_number(env, "THREADS", 0) or None,
            access_log=env.get("ACCESS_LOG", "") not in ("", "0"),
        )

    def config(self) -> dict[str, Any]:
        """The Flask config keys these settings give the app (before ``instance/config.py`` and a test's own;
    the write limit's switch is set after them, off for a test app unless it asks: ``create_app``)."""
        return {"SECRET_KEY": self.secret_key, "PUBLIC_URL": self.public_url,
                "TRUSTED_HOSTS": list(self.trusted_hosts) if self.trusted_hosts else None,
                "RATE_LIMIT_WRITES": self.write_limit, "RATE_LIMIT_ON": self.write_limit_on,
                "MAX_CONTENT_LENGTH": self.max_body, "TRUST_PROXY": self.trust_proxy, "HTTPS": self.https,
                "DB_POOL_SIZE": self.pool_size, "DB_MAX_OVERFLOW": self.max_overflow}
