"""Host the table from one machine: ``make table`` serves the app with the production server on this machine's
address on the local network, found by itself (or ``HOST``), prints that address with its QR code in the
terminal, and gives out every link and QR code on it (``PUBLIC_URL``, unless set already: ``public.py``).

The phones join over plain http: browsers keep some things for secure (https) addresses (keeping the screen
on, the clipboard, offline copies of pages); the pages say so or do without (README, "Hosting the table").
"""

from __future__ import annotations

import io
import ipaddress
import os
import socket
import sys
from collections.abc import Callable, Iterable

import segno

from . import server
from .settings import Settings

# An address of the documentation range (RFC 5737): asking the system which of this machine's addresses it
# would reach it from sends nothing (a UDP socket's connect only picks the route), and nothing answers there.
ROUTE_PROBE = ("192.0.2.1", 9)


def routed_address() -> str | None:
    """The address this machine would send from to reach the network (no packet is sent); None offline."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(ROUTE_PROBE)
            return str(s.getsockname()[0])
    except OSError:
        return None


def named_addresses() -> list[str]:
    """The IPv4 addresses this machine's name resolves to (often only 127.0.1.1 on Debian)."""
    try:
        return list(dict.fromkeys(str(a[4][0]) for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)))
    except OSError:
        return []


def pick(candidates: Iterable[str | None]) -> str:
    """The first address phones on the local network can reach: private (192.168.x, 10.x, 172.16-31.x) before
    any other that is not loopback or link-local; 127.0.0.1 when there is none (the table is this machine)."""
    usable = []
    for text in candidates:
        try:
            address = ipaddress.IPv4Address(text or "")
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
            continue
        usable.append(address)
    usable.sort(key=lambda a: not a.is_private)
    return str(usable[0]) if usable else "127.0.0.1"


def lan_address(sources: Iterable[Callable[[], object]] = (routed_address, named_addresses)) -> str:
    found: list[str | None] = []
    for source in sources:
        got = source()
        found.extend(got if isinstance(got, list) else [got])  # type: ignore[list-item]
    return pick(found)


def banner(url: str) -> str:
    """What the host's terminal shows: the address, its QR code, and what plain http means for the phones."""
    qr = segno.make(url, error="m")
    lines = ["", f"  Rummy companion for the table: {url}", "",
             "  Phones on the same Wi-Fi: scan this code, or type the address.", ""]
    return "\n".join(lines) + "\n" + _terminal_qr(qr) + "\n" + (
        "  Over plain http, phones cannot keep the screen on and keep no offline copies; for that, put the app\n"
        "  behind HTTPS (docs/deploy.md). Stop with Ctrl+C.\n")


def _terminal_qr(qr: segno.QRCode) -> str:
    """The code drawn for the terminal by segno (colours set with ANSI codes, so that it reads the same on a dark
    or a light terminal; two rows of modules per line)."""
    out = io.StringIO()
    qr.terminal(out=out, compact=True)
    return out.getvalue()


def main() -> None:
    s = Settings.from_env()
    host = s.host or lan_address()
    url = s.public_url or f"http://{host}:{s.port}"
    os.environ["PUBLIC_URL"] = url  # (for the server it starts) every link and QR code given out, on this address
    sys.stdout.write(banner(url))
    sys.stdout.flush()
    args = server.command(host, s.port, s.workers or server.WORKERS, s.threads or server.THREADS)
    os.chdir(server.ROOT)
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
