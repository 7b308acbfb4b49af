"""MAGDAGDON: a single-player dice-placement puzzle game."""

__version__ = "0.1.0"
