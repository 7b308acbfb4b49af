"""``magdagdon simulate``: placeholder until the simulator lands (issue 4)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``magdagdon simulate`` to its sub-parser."""
    parser.add_argument("--bot", required=True)
    parser.add_argument("--difficulty", required=True)
    parser.add_argument("--games", type=int, required=True)


def run(args: argparse.Namespace) -> int:
    """Run ``magdagdon simulate``; answer the exit status."""
    raise SystemExit("magdagdon simulate is not available yet")
