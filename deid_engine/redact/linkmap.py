"""The optional link map (original -> surrogate), encrypted with a password.

Written only when the user asks for it (``ExportOptions.link_map_password``).
The file is JSON ``{"format", "kdf", "salt", "n", "r", "p", "token"}`` where
``token`` is a Fernet token (AES-128-CBC + HMAC-SHA256) of the JSON list of
entries, under a key derived from the password with scrypt (n=2**15, r=8,
p=1). Without the password the file reveals nothing but its size.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Iterable, Mapping

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

FORMAT = "deid-linkmap-1"
_N, _R, _P = 2 ** 15, 8, 1


class LinkMapError(Exception):
    """Wrong password or damaged link map."""


def _fernet(password: str, salt: bytes, n: int = _N, r: int = _R, p: int = _P) -> Fernet:
    if not password:
        raise ValueError("an empty password cannot protect a link map")
    kdf = Scrypt(salt=salt, length=32, n=n, r=r, p=p)
    return Fernet(base64.urlsafe_b64encode(kdf.derive(password.encode("utf-8"))))


def encrypt_link_map(entries: Iterable[Mapping[str, object]], password: str) -> bytes:
    """The encrypted link map file content for ``entries`` (dicts: file, label, original, replacement)."""
    salt = os.urandom(16)
    payload = json.dumps(list(entries), ensure_ascii=False, sort_keys=True).encode("utf-8")
    token = _fernet(password, salt).encrypt(payload)
    doc = {"format": FORMAT, "kdf": "scrypt", "salt": base64.b64encode(salt).decode(), "n": _N, "r": _R,
           "p": _P, "token": token.decode("ascii")}
    return json.dumps(doc).encode("utf-8")


def write_link_map(path: Path, entries: Iterable[Mapping[str, object]], password: str) -> Path:
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(encrypt_link_map(entries, password))
    os.replace(tmp, path)
    return path


def decrypt_link_map(data: bytes | Path, password: str) -> list[dict]:
    """The entries of a link map (file path or bytes); ``LinkMapError`` on a wrong password."""
    raw = Path(data).read_bytes() if isinstance(data, Path) else data
    try:
        doc = json.loads(raw.decode("utf-8"))
        if doc.get("format") != FORMAT:
            raise LinkMapError("not a DeID Studio link map")
        f = _fernet(password, base64.b64decode(doc["salt"]), int(doc["n"]), int(doc["r"]), int(doc["p"]))
        return json.loads(f.decrypt(doc["token"].encode("ascii")).decode("utf-8"))
    except InvalidToken:
        raise LinkMapError("wrong password or damaged link map") from None
    except (ValueError, KeyError, TypeError) as e:
        raise LinkMapError(f"damaged link map ({type(e).__name__})") from None
