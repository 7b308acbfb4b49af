"""The page's floors (docs/web.md "Floors"): ``lib/`` and ``i18n/`` at the bottom, then
``core/`` (state, API, the engine's seam), then ``render/``, ``sheets/`` and ``review/``, and
the app (``app/``) on top. A module imports its own floor or lower ones, never higher, and no
chain of imports comes back to where it started — static imports and ``import()`` alike."""

from __future__ import annotations

import re
from pathlib import Path

import magdagdon

JS = Path(magdagdon.__file__).resolve().parent / "web" / "js"
FLOORS = {"lib": 0, "i18n": 0, "core": 1, "render": 2, "sheets": 2, "review": 2, "app": 3}
IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}/[^"']+)["']""", re.M
)


def imports(module: Path) -> set[Path]:
    """The page's modules ``module`` imports, statically or when needed, as resolved paths."""
    text = module.read_text(encoding="utf-8")
    text = re.sub(r"^\s*//.*$", "", text, flags=re.M)  # a path named in a comment is no import
    return {(module.parent / found).resolve() for found in IMPORT.findall(text)}


def graph(root: Path) -> dict[Path, set[Path]]:
    return {module: imports(module) for module in sorted(root.rglob("*.js"))}


def floor(module: Path, root: Path) -> int:
    return FLOORS[module.relative_to(root).parts[0]]


def climbs(root: Path) -> list[str]:
    """Every import of a higher floor, as ``importer -> imported``."""
    return [
        f"{a.relative_to(root)} -> {b.relative_to(root)}"
        for a, found in graph(root).items()
        for b in sorted(found)
        if floor(b, root) > floor(a, root)
    ]


def circles(root: Path) -> list[list[str]]:
    """Every chain of imports that comes back to a module it passed (one a circle)."""
    edges = graph(root)
    found: list[list[str]] = []
    done: set[Path] = set()

    def walk(module: Path, path: list[Path]) -> None:
        if module in path:
            found.append([str(m.relative_to(root)) for m in path[path.index(module) :]])
            return
        if module in done:
            return
        for nxt in sorted(edges.get(module, ())):
            walk(nxt, [*path, module])
        done.add(module)

    for module in edges:
        walk(module, [])
    return found


def test_every_module_is_on_a_floor_and_every_import_is_found() -> None:
    edges = graph(JS)
    assert len(edges) > 40
    assert all(module.relative_to(JS).parts[0] in FLOORS for module in edges)
    missing = [str(b) for found in edges.values() for b in found if b not in edges]
    assert missing == []
    assert sum(len(found) for found in edges.values()) > 100


def test_no_module_imports_a_higher_floor() -> None:
    assert climbs(JS) == []


def test_no_circle_of_imports() -> None:
    assert circles(JS) == []


def test_the_checks_see_a_climb_and_a_circle(tmp_path: Path) -> None:
    for folder in ("core", "render", "lib"):
        (tmp_path / folder).mkdir()
    (tmp_path / "core" / "a.js").write_text('import { b } from "../render/b.js";\n')
    (tmp_path / "render" / "b.js").write_text('const c = () => import("../lib/c.js");\n')
    (tmp_path / "lib" / "c.js").write_text(
        '// from "../core/a.js" in a comment is no import\nimport { a } from "./d.js";\n'
    )
    (tmp_path / "lib" / "d.js").write_text('export { c } from "./c.js";\n')
    assert climbs(tmp_path) == ["core/a.js -> render/b.js"]
    assert circles(tmp_path) == [["lib/c.js", "lib/d.js"]]
