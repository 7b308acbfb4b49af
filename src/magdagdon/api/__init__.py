"""MAGDAGDON api."""
