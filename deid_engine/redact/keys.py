"""The secret project key and everything derived from it.

One key per installation (32 random bytes in ``user_path("project.key")``,
mode 0600) seeds every surrogate choice and date offset through
HMAC-SHA256, so the same original maps to the same surrogate in every file,
every run and every worker process, with no shared state. The key is never
written to outputs or logs; reports carry only ``fingerprint(key)``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import unicodedata
from pathlib import Path

from ..resources import user_path

KEY_BYTES = 32
KEY_FILE = "project.key"


def _key_path(path: Path | None) -> Path:
    return Path(path) if path is not None else user_path(KEY_FILE)


def load_or_create_key(path: Path | None = None) -> bytes:
    """Read the project key, creating it (0600, exclusive create) if absent."""
    p = _key_path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        p.parent.mkdir(parents=True, exist_ok=True)
        key = os.urandom(KEY_BYTES)
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process won the race: use its key
            return load_or_create_key(p)
        try:
            os.write(fd, key)
        finally:
            os.close(fd)
        try:
            os.chmod(p, 0o600)
        except OSError:  # pragma: no cover - e.g. some Windows file systems
            pass
        return key
    if len(data) != KEY_BYTES:
        raise ValueError(f"project key file {p.name} is corrupt (expected {KEY_BYTES} bytes)")
    return data


def fingerprint(key: bytes) -> str:
    """First 16 hex digits of sha256(key): identifies the key, reveals nothing."""
    return hashlib.sha256(key).hexdigest()[:16]


def normalise(text: str) -> str:
    """Case-, accent- and space-insensitive form used to seed choices."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    return " ".join(t.casefold().split())


def digest(key: bytes, *parts: str) -> bytes:
    """HMAC-SHA256 of the parts (joined unambiguously) under ``key``."""
    msg = "\x1f".join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(key, msg, hashlib.sha256).digest()


def seed_int(key: bytes, *parts: str) -> int:
    return int.from_bytes(digest(key, *parts)[:8], "big")


def keyed_rng(key: bytes, *parts: str) -> random.Random:
    """A ``random.Random`` seeded from HMAC(key, parts): same parts, same draws."""
    return random.Random(seed_int(key, *parts))


def short_code(key: bytes, *parts: str, length: int = 4) -> str:
    """A short stable upper-case hex code (for ``[PATIENT-3F2A]`` placeholders)."""
    return digest(key, *parts).hex()[:length].upper()
