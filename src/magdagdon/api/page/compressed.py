"""Static files sent compressed: brotli where the browser takes it, else gzip, else as they are
(docs/web.md, "The download").

The page's own files are compressed once, the first time a browser asks for them, and kept in
memory; the offline engine's large files are compressed at build (``tools/pyodide/bundle.py``
writes ``NAME.br`` and ``NAME.gz`` beside ``NAME``), and each such copy is sent only when its
bytes, decompressed, have the SHA-256 of the file itself (checked once per version of the file).
A copy that saves less than a twentieth is not kept (the zips and images are sent as they are),
nor one of a file too small to gain by it.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import zlib
from typing import TYPE_CHECKING

import brotli  # type: ignore[import-untyped]

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

#: The encodings sent, best first, as ``Content-Encoding`` names them.
ENCODINGS = ("br", "gzip")
SUFFIX = {"br": ".br", "gzip": ".gz"}
#: Files already compressed in their own format: never compressed again.
_PACKED = (".png", ".ico", ".woff2", ".jpg", ".webp", ".br", ".gz")
_WORTH = 0.95
_SMALLEST = 256  # bytes: below it, a compressed answer saves less than its headers cost


def accepted(header: str | None) -> list[str]:
    """The encodings of ``ENCODINGS`` that an ``Accept-Encoding`` header takes, best first
    (one with ``q=0`` is refused)."""
    if not header:
        return []
    taken: set[str] = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        q = params.strip().removeprefix("q=").strip() if params.strip().startswith("q=") else "1"
        try:
            weight = float(q)
        except ValueError:
            weight = 1.0
        if weight > 0:
            taken.add(name.strip().lower())
    return [e for e in ENCODINGS if e in taken or "*" in taken]


def compress(data: bytes, encoding: str) -> bytes:
    """``data`` in ``encoding``, as small as each makes it (reproducible: no date in gzip's)."""
    if encoding == "br":
        return bytes(brotli.compress(data, quality=11))
    return gzip.compress(data, compresslevel=9, mtime=0)


def decompress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.decompress(data))
    return zlib.decompress(data, wbits=31)


def compressible(name: str) -> bool:
    return not name.lower().endswith(_PACKED)


def worth(raw: int, packed: int) -> bool:
    """Whether a compressed copy saves enough to be sent instead."""
    return raw >= _SMALLEST and packed <= raw * _WORTH


def variants(data: bytes, name: str) -> dict[str, bytes]:
    """The compressed copies of ``data`` (a file named ``name``) worth sending."""
    if not compressible(name):
        return {}
    made = {encoding: compress(data, encoding) for encoding in ENCODINGS}
    return {e: packed for e, packed in made.items() if worth(len(data), len(packed))}


def sidecar(path: Path, encoding: str) -> Path:
    return path.with_name(path.name + SUFFIX[encoding])


def is_sidecar(name: str) -> bool:
    return name.endswith(tuple(SUFFIX.values()))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _key(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


_checked: dict[tuple[Path, str], tuple[object, Path | None]] = {}


def checked_sidecar(path: Path, encoding: str) -> Path | None:
    """``path``'s copy in ``encoding`` when there is one whose decompressed bytes are the
    file's own (checked once per version of both files), else None."""
    copy = sidecar(path, encoding)
    key = (_key(path), _key(copy))
    if key[1] is None:
        return None
    found = _checked.get((path, encoding))
    if found is not None and found[0] == key:
        return found[1]
    try:
        same = _sha256(decompress(copy.read_bytes(), encoding)) == _sha256(path.read_bytes())
    except (OSError, ValueError, zlib.error, brotli.error):
        same = False
    _checked[(path, encoding)] = (key, copy if same else None)
    return copy if same else None


def precompress(paths: Iterable[Path]) -> dict[str, dict[str, int]]:
    """Writes each file's copies worth sending beside it (an up-to-date one is kept as it is, one
    not worth sending removed); answers each file's bytes on the wire: ``{name: {"identity",
    "br", "gzip"}}`` (an encoding with no copy counts the file's own bytes)."""
    sizes: dict[str, dict[str, int]] = {}
    for path in paths:
        data = path.read_bytes()
        sizes[path.name] = {"identity": len(data)}
        for encoding in ENCODINGS:
            copy = sidecar(path, encoding)
            kept = checked_sidecar(path, encoding) if compressible(path.name) else None
            packed = kept.read_bytes() if kept is not None else None
            if packed is None and compressible(path.name):
                packed = compress(data, encoding)
            if packed is None or not worth(len(data), len(packed)):
                copy.unlink(missing_ok=True)
                sizes[path.name][encoding] = len(data)
                continue
            if kept is None:
                tmp = copy.with_name(f".{copy.name}.{os.getpid()}")
                tmp.write_bytes(packed)
                os.replace(tmp, copy)
            sizes[path.name][encoding] = len(packed)
    return sizes
