"""Simulation of many games with a computer player (``magdagdon simulate``)."""
