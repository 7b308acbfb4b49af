"""What the store's tools refuse (a write's refusals are the services' own:
``magdagdon.services.errors``)."""

from __future__ import annotations


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer MAGDAGDON than this one."""


class TargetNotEmptyError(RuntimeError):
    """``magdagdon db copy`` refuses a target that already holds players or games."""
