"""The house's floors (docs/store.md "Who does what"): the store is the bottom floor of the
server — no module under ``store/`` imports the services or the API — and the one way into the
database: no module outside ``store/`` imports a database driver or SQLAlchemy. Imports made
only for the type checker count too (a cycle or a leak is one all the same)."""

from __future__ import annotations

import ast
from pathlib import Path

import magdagdon

SRC = Path(magdagdon.__file__).resolve().parent
DRIVERS = ("sqlite3", "psycopg", "sqlalchemy")
ABOVE_THE_STORE = ("magdagdon.services", "magdagdon.api")


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names; a relative import named from its
    package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            assert node.module is not None
            found.add(node.module)
    return found


def modules(under: Path) -> list[Path]:
    return sorted(under.rglob("*.py"))


def within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_no_module_of_the_store_imports_the_services_or_the_api() -> None:
    store = modules(SRC / "store")
    assert len(store) > 10
    wrong = {
        str(path.relative_to(SRC)): sorted(n for n in imports(path) if within(n, ABOVE_THE_STORE))
        for path in store
    }
    assert {path: names for path, names in wrong.items() if names} == {}


def test_no_module_outside_the_store_imports_a_database_driver() -> None:
    outside = [path for path in modules(SRC) if (SRC / "store") not in path.parents]
    assert len(outside) > 50
    wrong = {
        str(path.relative_to(SRC)): sorted(n for n in imports(path) if within(n, DRIVERS))
        for path in outside
    }
    assert {path: names for path, names in wrong.items() if names} == {}


def test_the_check_sees_an_import_that_climbs(tmp_path: Path) -> None:
    module = tmp_path / "leak.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from magdagdon.services.errors import RefusedError\nimport sqlite3\n",
        encoding="utf-8",
    )
    found = imports(module)
    assert within("magdagdon.services.errors", ABOVE_THE_STORE)
    assert {"magdagdon.services.errors", "sqlite3"} <= found
