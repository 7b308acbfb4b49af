"""The page decides no rule (docs/web.md): the bound every seed stays below is the engine's
(engine/rules.py SEED_LIMIT, sent by the page's engine worker), never written in the page."""

from __future__ import annotations

import re
from pathlib import Path

from magdagdon.engine.rules import SEED_LIMIT

WEB = Path(__file__).resolve().parents[2] / "src" / "magdagdon" / "web"
# the bound, however it might be written: 2 ** 53, its digits, one below it, its high word
BOUND = re.compile(
    r"2\s*\*\*\s*(53|21)\b|Math\.pow\(\s*2\s*,\s*(53|21)\s*\)|MAX_SAFE_INTEGER|"
    + "|".join(str(n) for n in (SEED_LIMIT, SEED_LIMIT - 1, SEED_LIMIT >> 32))
)


def test_no_page_file_names_the_seed_bound() -> None:
    scripts = sorted(p for p in WEB.rglob("*") if p.suffix in (".js", ".mjs", ".html"))
    assert any(p.name == "local.js" for p in scripts)
    named = {
        str(p.relative_to(WEB)): found.group(0)
        for p in scripts
        if (found := BOUND.search(p.read_text(encoding="utf-8")))
    }
    assert named == {}


def test_the_engine_worker_sends_the_engines_bound() -> None:
    boot = (WEB / "engine" / "boot.mjs").read_text(encoding="utf-8")
    assert "from magdagdon.engine.rules import SEED_LIMIT" in boot
    assert "seed_limit: engine.seedLimit" in (WEB / "engine" / "worker.js").read_text()
    assert "BigInt(seedLimit)" in (WEB / "js" / "core" / "local.js").read_text()
