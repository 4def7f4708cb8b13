"""Reading plain-text notes from disk, whatever encoding they arrive in.

The decoded text keeps its line endings (CRLF stays CRLF) so that offsets
and exported files match the original byte for byte outside PHI.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_BYTES = 256 * 1024 * 1024


class ReadError(Exception):
    """A file that cannot be read as text. The message names no PHI."""


@dataclass(frozen=True, slots=True)
class DecodedText:
    text: str
    encoding: str  # codec name to write it back with ("utf-8-sig" keeps the BOM)
    warning: str = ""

    @property
    def bom_chars(self) -> int:
        """Characters the decoder dropped at the start (1 for a byte-order mark, else 0).

        Tools that count the BOM as a character (BRAT, MEDDOCAN's files) give offsets
        this much larger than offsets into ``text``.
        """
        return 1 if self.encoding in ("utf-8-sig", "utf-16", "utf-32") else 0


def _looks_binary(data: bytes) -> bool:
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    # Control bytes other than tab, LF, CR, FF are rare in text.
    ctrl = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return len(sample) > 0 and ctrl / len(sample) > 0.05


def decode_bytes(data: bytes) -> DecodedText:
    """Decode a note: BOMs first, then strict UTF-8, then cp1252 with a warning."""
    if data.startswith(codecs.BOM_UTF8):
        try:
            return DecodedText(data[len(codecs.BOM_UTF8):].decode("utf-8"), "utf-8-sig")
        except UnicodeDecodeError as e:
            raise ReadError(f"UTF-8 BOM but invalid UTF-8 at byte {e.start}") from None
    for bom, enc in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                     (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return DecodedText(data.decode(enc), enc)
            except UnicodeDecodeError as e:
                raise ReadError(f"{enc.upper()} BOM but undecodable at byte {e.start}") from None
    if _looks_binary(data):
        raise ReadError("binary file (not text)")
    try:
        return DecodedText(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as e:
        utf8_error = e.start
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as e:
        raise ReadError(f"not UTF-8 (byte {utf8_error}) nor cp1252 (byte {e.start})") from None
    return DecodedText(text, "cp1252", warning=f"not valid UTF-8 (byte {utf8_error}); read as cp1252")


def read_text_file(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> DecodedText:
    """Read and decode one text file; raise ReadError with a PHI-free reason."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ReadError(f"file too large ({size / 1e6:.1f} MB > {max_bytes / 1e6:.0f} MB limit)")
        data = path.read_bytes()
    except ReadError:
        raise
    except IsADirectoryError:
        raise ReadError("is a directory") from None
    except PermissionError:
        raise ReadError("permission denied") from None
    except FileNotFoundError:
        raise ReadError("file not found") from None
    except OSError as e:
        raise ReadError(f"cannot read ({e.strerror or type(e).__name__})") from None
    return decode_bytes(data)


def encode_text(text: str, encoding: str) -> bytes:
    """Encode text to write it back in the encoding it was read with."""
    if encoding == "utf-16":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if encoding == "utf-32":
        return codecs.BOM_UTF32_LE + text.encode("utf-32-le")
    return text.encode(encoding)
