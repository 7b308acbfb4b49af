"""``magdagdon simulate``: its JSON figures, determinism with any ``--jobs``, and the SVG plot."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.cli import main
from magdagdon.sim.stats import percentile

if TYPE_CHECKING:
    from pathlib import Path

TIMING = {"seconds", "games_per_second", "jobs"}


def _simulate(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", *args, "--json"]) == 0
    out = capsys.readouterr().out
    figures: dict[str, Any] = json.loads(out)
    return figures


def test_json_has_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    figures = _simulate(capsys, "--bot", "random", "--difficulty", "peaceful", "--games", "30")
    for key in (
        "mean",
        "games",
        "games_per_second",
        "stdev",
        "median",
        "p5",
        "p95",
        "best",
        "magdagdons_per_game",
        "ruins_per_game",
        "powers_per_game",
        "combos",
    ):
        assert key in figures
    assert figures["games"] == 30
    assert figures["p5"] <= figures["median"] <= figures["p95"] <= figures["best"]
    assert figures["magdagdons_per_game"] >= figures["ruins_per_game"] > 0  # random play ruins
    assert set(figures["combos"]) == {"straight", "four_of_a_kind", "two_pairs"}


def test_same_seed_same_figures_with_any_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--bot", "greedy", "--difficulty", "survival", "--games", "12", "--seed", "7"]
    one = _simulate(capsys, *args, "--jobs", "1")
    two = _simulate(capsys, *args, "--jobs", "2")
    other = _simulate(capsys, *args[:-1], "8", "--jobs", "1")
    assert {k: v for k, v in one.items() if k not in TIMING} == {
        k: v for k, v in two.items() if k not in TIMING
    }
    assert one["mean"] != other["mean"] or one["best"] != other["best"]


def test_text_output_and_svg_histogram(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    args = ["simulate", "--bot", "random", "--difficulty", "nightmare", "--games", "25"]
    assert main([*args, "--plot", str(plot)]) == 0
    captured = capsys.readouterr()
    assert "mean" in captured.out
    assert "games per second" in captured.out
    assert "25/25 games" in captured.err  # the progress bar
    root = ET.fromstring(plot.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    bars = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.get("class") == "bar"]
    counts = [
        int(bar.findtext("{http://www.w3.org/2000/svg}title", "").rsplit(": ", 1)[1])
        for bar in bars
    ]
    assert sum(counts) == 25


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["simulate", "--bot", "nobody", "--difficulty", "peaceful", "--games", "1"]) == 2
    plot = str(tmp_path / "x.png")
    args = ["simulate", "--bot", "random", "--difficulty", "peaceful", "--games", "1"]
    assert main([*args, "--plot", plot]) == 2
    with pytest.raises(SystemExit):
        main(["simulate", "--bot", "random", "--difficulty", "easy", "--games", "1"])
    with pytest.raises(SystemExit):
        main(["simulate", "--bot", "random", "--difficulty", "peaceful", "--games", "0"])
    assert "unknown bot" in capsys.readouterr().err


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([10, 20, 30, 40, 50], 0.5) == 30
    assert percentile([10, 20], 0.05) == pytest.approx(10.5)
    assert percentile([0, 100], 0.95) == pytest.approx(95)
