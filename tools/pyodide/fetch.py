"""Fetch the pinned Pyodide (``tools/pyodide/pin.json``) from the npm registry once, at set-up.

``npm pack`` downloads the package's tarball; its SHA-512 must equal the committed ``integrity``
(the registry's own ``dist.integrity`` form) or nothing is unpacked. The package goes to
``build/pyodide/`` (ignored by git) with a ``.pin`` stamp; a folder whose stamp matches the pin
is left alone, so this is a no-op once done. Nothing is fetched at run time.

Usage: ``python3 tools/pyodide/fetch.py`` (``make pyodide``). Standard library and npm only.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = Path(__file__).with_name("pin.json")
DEST = ROOT / "build" / "pyodide"


def pin() -> dict[str, object]:
    data: dict[str, object] = json.loads(PIN.read_text(encoding="utf-8"))
    return data


def integrity_of(path: Path) -> str:
    """The npm ``integrity`` string of a file: ``sha512-`` and the base64 digest."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def stamp_of(data: dict[str, object]) -> str:
    return f"{data['package']}@{data['version']} {data['integrity']}\n"


def fetch(dest: Path = DEST) -> bool:
    """Unpack the pinned package into ``dest``; False when it is there already."""
    data = pin()
    stamp = dest / ".pin"
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == stamp_of(data):
        stamp.touch()  # newer than pin.json now: make sees nothing left to do
        return False
    spec = f"{data['package']}@{data['version']}"
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["npm", "pack", spec, "--json", "--pack-destination", tmp],
            check=True,
            capture_output=True,
            text=True,
        )
        tarball = Path(tmp) / json.loads(out.stdout)[0]["filename"]
        got = integrity_of(tarball)
        if got != data["integrity"]:
            sys.exit(f"{spec}: checksum {got} is not the pinned {data['integrity']}")
        unpacked = Path(tmp) / "unpacked"
        with tarfile.open(tarball) as tar:
            tar.extractall(unpacked, filter="data")
        if dest.exists():
            shutil.rmtree(dest)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(unpacked / "package", dest)
    stamp.write_text(stamp_of(data), encoding="utf-8")
    return True


if __name__ == "__main__":
    done = fetch()
    print(f"build/pyodide: {'fetched' if done else 'already there'} ({stamp_of(pin()).strip()})")
