"""The examples in the engine's docstrings run, and say what the engine does."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import magdagdon.engine

MODULES = sorted(
    ["magdagdon.engine"]
    + [f"magdagdon.engine.{m.name}" for m in pkgutil.iter_modules(magdagdon.engine.__path__)]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_examples_are_there() -> None:
    attempted = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert attempted >= 15
