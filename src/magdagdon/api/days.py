"""A day in a request: the text ``YYYY-MM-DD`` of a real date (pydantic alone would also take a
number of seconds or a time); anything else answers 422 ``malformed``."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from pydantic import BeforeValidator, Field

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _day_text(value: object) -> object:
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


Day = Annotated[date, BeforeValidator(_day_text), Field(description="A UTC date, YYYY-MM-DD.")]
