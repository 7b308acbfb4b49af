"""The server's log: plain lines (the default, for a person at ``make play``), or one JSON
object a line (``--log-format json``, ``MAGDAGDON_LOG_FORMAT=json``) for a log store to search.

Every request gets an id (``api/edge/observe.py``): it is sent back in the answer's
``X-Request-Id`` and is in every log line written while the request is worked on (the
request's own line, an error's, the store's), so that what a player saw joins what the log
says. In JSON each request has one line::

    {"time": "2026-12-03T14:05:06.789Z", "level": "info", "logger": "magdagdon.request",
     "message": "request", "worker": 4242, "request_id": "9f1c2b3a4d5e6f70",
     "method": "POST", "route": "/api/games/{game_id}/actions", "status": 200,
     "duration_ms": 1.31}

and an error its own, with the same id and its ``cause`` (and ``traceback``).
"""

from __future__ import annotations

import json
import logging
import time
from contextvars import ContextVar
from typing import Any

#: The id of the request being worked on (anyio's threads inherit it).
REQUEST_ID: ContextVar[str | None] = ContextVar("magdagdon_request_id", default=None)
#: The fields a log call may add (``extra=``), in the order they are written.
FIELDS = ("method", "route", "status", "duration_ms", "code", "cause")


def _stamp(created: float) -> str:
    seconds = int(created)
    millis = int((created - seconds) * 1000)
    return f"{time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(seconds))}.{millis:03d}Z"


class JsonFormatter(logging.Formatter):
    """A record as one JSON object on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _stamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "worker": record.process,
        }
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            entry.setdefault("cause", f"{type(error).__name__}: {error}")
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def uvicorn_config(log_format: str) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for the format: None keeps uvicorn's own (plain)."""
    if log_format != "json":
        return None
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    one = {"handlers": ["json"], "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {"json": handler},
        "root": {"handlers": ["json"], "level": "WARNING"},
        "loggers": {
            "uvicorn": one,
            "uvicorn.access": one,
            "magdagdon": {**one, "level": "INFO"},
        },
    }
