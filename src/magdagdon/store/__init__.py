"""MAGDAGDON store."""
