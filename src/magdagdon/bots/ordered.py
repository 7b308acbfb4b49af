"""A sum of floats added in order, left to right, on every Python.

From Python 3.12 ``sum()`` of floats compensates its rounding (Neumaier), so one sum of the
same terms ends in other bits on the server (3.11) than in the page's Pyodide (3.14): the hint
offline must be the server's to the last bit (a tie broken alike). Before 3.12 ``sum()`` adds in
order and is the fastest way; from 3.12 a left fold does the same additions.
"""

from __future__ import annotations

import sys
from functools import reduce
from operator import add
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

if sys.version_info >= (3, 12):

    def ordered_sum(terms: Iterable[float]) -> float:
        """The terms added in order (``sum()`` here would compensate)."""
        found: float = reduce(add, terms, 0.0)
        return found

else:

    def ordered_sum(terms: Iterable[float]) -> float:
        """The terms added in order (``sum()`` does, before Python 3.12)."""
        return sum(terms, 0.0)
