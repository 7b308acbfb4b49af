"""The examples in the engine's docstrings run, say what the engine does, and stay there."""

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

#: By module, the docstrings with examples and how many examples each has: an example that goes
#: (or a new one not listed here) fails the test.
EXAMPLES: dict[str, dict[str, int]] = {
    "magdagdon.engine": {"magdagdon.engine": 7},
    "magdagdon.engine.board": {"cell_of": 1, "iter_cells": 1, "row_col": 1, "spread": 1},
    "magdagdon.engine.codec": {"cell_to_json": 1},
    "magdagdon.engine.board_codes": {
        "magdagdon.engine.board_codes": 3,
        "dead": 3,
        "live_cells": 1,
        "live_masks": 2,
        "images": 1,
        "mask_values": 1,
    },
    "magdagdon.engine.daily": {"magdagdon.engine.daily": 5},
    "magdagdon.engine.dice": {
        "die_value": 1,
        "roll_chances": 1,
        "roll_expectation": 1,
        "roll_outcomes": 1,
        "splitmix64": 1,
    },
    "magdagdon.engine.rules": {
        "Difficulty": 1,
        "Difficulty.penalty_after": 1,
        "adjusted": 1,
        "may_touch": 1,
        "min_required": 1,
    },
    "magdagdon.engine.scoring": {"board_points": 2, "combo_of": 1, "line_bonus": 1},
    "magdagdon.engine.host": {"magdagdon.engine.host": 7},
    "magdagdon.engine.replays": {"magdagdon.engine.replays": 4},
    "magdagdon.engine.search": {"can_place": 2},
    "magdagdon.engine.view": {"magdagdon.engine.view": 3},
}


def _docstrings(name: str) -> dict[str, doctest.DocTest]:
    found = doctest.DocTestFinder().find(importlib.import_module(name))
    return {t.name.removeprefix(name + ".") or name: t for t in found if t.examples}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    docstrings = _docstrings(name)
    assert {k: len(t.examples) for k, t in docstrings.items()} == EXAMPLES.get(name, {})
    runner = doctest.DocTestRunner()  # no ELLIPSIS: every result is stated in full
    for test in docstrings.values():
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted == sum(EXAMPLES.get(name, {}).values())
    assert result.failed == 0


def test_every_docstring_s_examples_end_with_a_result_to_check() -> None:
    for name in MODULES:
        for test in _docstrings(name).values():
            assert test.examples[-1].want.strip(), f"{test.name} shows no result"


def test_a_wrong_result_in_an_example_fails() -> None:
    # 2 and 4 differ by 2: they may not stand side by side (docs/rules.md "Valid placement").
    source = ">>> from magdagdon.engine.rules import may_touch\n>>> may_touch(2, 4)\nTrue\n"
    test = doctest.DocTestParser().get_doctest(source, {}, "wrong", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda _text: None)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=1, attempted=2)
