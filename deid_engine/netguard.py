"""The offline guard: make any network access from Python fail loudly, and record it.

DeID Studio never needs the network. ``block_network()`` replaces the socket
entry points (``socket.socket.connect`` / ``connect_ex`` / ``sendto`` /
``sendmsg`` / ``bind``, ``socket.create_connection``, ``getaddrinfo`` and the
``gethostby*`` resolvers) and ``ssl.SSLContext.wrap_socket`` / ``wrap_bio``
with versions that raise :class:`NetworkBlockedError` and append a
:class:`NetworkAttempt` to :func:`attempts`.

Local sockets keep working: ``AF_UNIX`` (Qt and multiprocessing may use them)
and ``socketpair()`` are never touched. Loopback TCP/UDP is blocked too unless
``allow_loopback=True`` (nothing in the app needs it).

What it cannot see: native code that opens sockets itself (Qt's QtNetwork,
libcurl, torch's C++ distributed backend). The app bundles no QtNetwork and
never imports torch.distributed; the installer smoke test traces the frozen
app's system calls (strace, where available) to cover that gap.

``NetworkBlockedError`` is a ``ConnectionError`` (an ``OSError``), so a
library that probes the network and falls back when offline keeps working;
the attempt is still recorded, logged (host and port only, never document
text) and fails the no-network test.
"""

from __future__ import annotations

import logging
import os
import socket
import ssl
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)

# Environment variables that tell third-party libraries never to reach a hub or
# send telemetry. The app and the ``deid`` CLI set them at start-up (setdefault:
# a user's explicit value wins, except that nothing here can turn networking on).
OFFLINE_ENV: dict[str, str] = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "DASK_DISTRIBUTED__DIAGNOSTICS_LINK": "",
    "TORCH_DISABLE_ADDR2LINE": "1",
    "PYTORCH_JIT_LOG_LEVEL": "",
    "WANDB_MODE": "disabled",
    "MLFLOW_TRACKING_URI": "",
}

# ``DEID_NETGUARD=off`` disables the guard (debugging only); anything else keeps it on.
ENV_SWITCH = "DEID_NETGUARD"


class NetworkBlockedError(ConnectionError):
    """Raised instead of opening a network connection."""


@dataclass(frozen=True)
class NetworkAttempt:
    """One blocked call: which entry point, the target (host/port only) and the caller."""

    kind: str
    target: str
    caller: str

    def __str__(self) -> str:
        return f"{self.kind}({self.target}) from {self.caller}"


_lock = threading.RLock()
_attempts: list[NetworkAttempt] = []
_saved: dict[tuple[Any, str], Any] = {}
_allow_loopback = False

_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def offline_environment() -> dict[str, str]:
    """Set the hub/telemetry variables of :data:`OFFLINE_ENV` (without overriding explicit values)."""
    for k, v in OFFLINE_ENV.items():
        os.environ.setdefault(k, v)
    return {k: os.environ[k] for k in OFFLINE_ENV}


def enabled_by_env() -> bool:
    return os.environ.get(ENV_SWITCH, "").strip().lower() not in {"off", "0", "false", "no"}


def _is_loopback_host(host: Any) -> bool:
    if host is None:
        return True  # getaddrinfo(None, port): the local wildcard, no lookup
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    h = str(host).strip().lower().strip("[]")
    if h in _LOOPBACK_NAMES or h == "::1":
        return True
    return h.startswith("127.")


def _describe(address: Any) -> str:
    if isinstance(address, tuple) and address:
        return ":".join(str(a) for a in address[:2])
    if isinstance(address, (bytes, bytearray)):
        return "<bytes>"
    return str(address)


def _caller() -> str:
    """The innermost frame outside this module and the socket/ssl modules (file:line)."""
    skip = {__file__, socket.__file__, ssl.__file__}
    for fs in reversed(traceback.extract_stack()[:-2]):
        if fs.filename not in skip:
            return f"{os.path.basename(fs.filename)}:{fs.lineno} in {fs.name}"
    return "?"


def _refuse(kind: str, target: str) -> NetworkBlockedError:
    attempt = NetworkAttempt(kind, target, _caller())
    with _lock:
        _attempts.append(attempt)
    log.warning("blocked network access: %s", attempt)
    return NetworkBlockedError(f"DeID Studio works offline: network access blocked ({attempt}). "
                               f"Nothing in the app should open a connection; please report this.")


def _inet(sock: socket.socket) -> bool:
    try:
        return sock.family in (socket.AF_INET, socket.AF_INET6)
    except Exception:  # pragma: no cover - closed socket
        return True


def _allowed_inet(address: Any) -> bool:
    return _allow_loopback and isinstance(address, tuple) and bool(address) and _is_loopback_host(address[0])


def _wrap_method(name: str, addr_index: int | None):
    real = getattr(socket.socket, name)

    def guarded(self, *args, **kwargs):
        if _inet(self):
            address = args[addr_index] if addr_index is not None and len(args) > addr_index else None
            if not _allowed_inet(address):
                raise _refuse(f"socket.{name}", _describe(address))
        return real(self, *args, **kwargs)

    guarded.__name__ = name
    guarded.__wrapped__ = real  # type: ignore[attr-defined]
    return guarded


def _guard_create_connection(address, *args, **kwargs):
    if not _allowed_inet(address):
        raise _refuse("socket.create_connection", _describe(address))
    return _saved[(socket, "create_connection")](address, *args, **kwargs)


def _guard_resolver(name: str):
    real = getattr(socket, name)

    def guarded(host, *args, **kwargs):
        if not (_allow_loopback and _is_loopback_host(host)) and host is not None:
            port = f":{args[0]}" if args else ""
            raise _refuse(f"socket.{name}", f"{host}{port}")
        return real(host, *args, **kwargs)

    guarded.__name__ = name
    guarded.__wrapped__ = real  # type: ignore[attr-defined]
    return guarded


def _guard_ssl(name: str):
    def guarded(self, *args, **kwargs):
        raise _refuse(f"ssl.SSLContext.{name}", kwargs.get("server_hostname") or "?")

    guarded.__name__ = name
    return guarded


def _patch(owner: Any, name: str, value: Any) -> None:
    key = (owner, name)
    if key not in _saved:
        _saved[key] = getattr(owner, name)
    setattr(owner, name, value)


def block_network(allow_loopback: bool = False) -> None:
    """Make every Python-level network access raise :class:`NetworkBlockedError` (idempotent)."""
    global _allow_loopback
    with _lock:
        _allow_loopback = allow_loopback
        if is_blocked():
            return
        # socket.socket methods taking an address: index of the address in *args.
        for name, idx in (("connect", 0), ("connect_ex", 0), ("bind", 0), ("sendto", -1), ("sendmsg", 3)):
            if not hasattr(socket.socket, name):  # pragma: no cover - platform without sendmsg
                continue
            if idx == -1:
                _patch(socket.socket, name, _wrap_sendto())
            else:
                _patch(socket.socket, name, _wrap_method(name, idx))
        _patch(socket, "create_connection", _guard_create_connection)
        for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr"):
            _patch(socket, name, _guard_resolver(name))
        for name in ("wrap_socket", "wrap_bio"):
            _patch(ssl.SSLContext, name, _guard_ssl(name))


def _wrap_sendto():
    real = socket.socket.sendto

    def sendto(self, *args, **kwargs):  # sendto(data, address) or sendto(data, flags, address)
        if _inet(self):
            address = args[-1] if len(args) >= 2 else None
            if not _allowed_inet(address):
                raise _refuse("socket.sendto", _describe(address))
        return real(self, *args, **kwargs)

    sendto.__wrapped__ = real  # type: ignore[attr-defined]
    return sendto


def unblock_network() -> None:
    """Restore the original socket and ssl functions (tests)."""
    with _lock:
        for (owner, name), value in _saved.items():
            setattr(owner, name, value)
        _saved.clear()


def is_blocked() -> bool:
    return bool(_saved)


def attempts() -> list[NetworkAttempt]:
    """Every blocked attempt since start-up (or the last :func:`clear_attempts`)."""
    with _lock:
        return list(_attempts)


def clear_attempts() -> None:
    with _lock:
        _attempts.clear()


@contextmanager
def blocked(allow_loopback: bool = False) -> Iterator[list[NetworkAttempt]]:
    """Block the network inside a ``with`` block; yields the live list of attempts made in it."""
    was = is_blocked()
    start = len(attempts())
    block_network(allow_loopback)
    made: list[NetworkAttempt] = []
    try:
        yield made
    finally:
        made.extend(attempts()[start:])
        if not was:
            unblock_network()


def install(strict: bool | None = None) -> bool:
    """What the app and the frozen ``deid`` call first: offline env vars, then the guard.

    ``strict=None`` follows ``DEID_NETGUARD`` (on unless set to ``off``). Returns
    whether the guard is active.
    """
    offline_environment()
    if strict is None:
        strict = enabled_by_env()
    if strict:
        block_network()
    return is_blocked()
