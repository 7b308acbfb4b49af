"""MAGDAGDON bots."""
