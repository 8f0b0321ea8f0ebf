"""HTTP helper for the partner quotes importer.

Callers across the importer use fetch_json(url, timeout) and catch FetchError.
Both are public: keep them as they are.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

# The partner throttles with 429 and sheds load with [[variant.shed]]. Those two, and only
# those two, are worth asking again.
RETRY_STATUSES = frozenset({429, [[variant.shed]]})
MAX_ATTEMPTS = 3
FIRST_WAIT = 0.1  # seconds; doubles after every retried failure (0.1, then 0.2)


class FetchError(Exception):
    """A fetch failed. `status` is the HTTP status when the server sent one."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def fetch_json(url: str, timeout: float = 5.0) -> dict[str, Any]:
    """GET `url` and return the JSON object in the body.

    429 and [[variant.shed]] are retried until the partner recovers, with doubling waits
    capped at one second. Every other failure is raised on the first attempt.
    """
    wait = FIRST_WAIT
    while True:
        try:
            return _get_once(url, timeout)
        except FetchError as exc:
            if exc.status not in RETRY_STATUSES:
                raise
        # The partner always recovers eventually; keep the wait reasonable.
        time.sleep(min(wait, 1.0))
        wait *= 2


def _get_once(url: str, timeout: float) -> dict[str, Any]:
    request = urllib.request.Request(url, headers={"Accept": "application/json"}, method="GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:
        raise FetchError(f"http {exc.code}", status=exc.code) from exc
    except urllib.error.URLError as exc:
        raise FetchError(f"transport error: {type(exc.reason).__name__}") from exc

    try:
        payload = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FetchError("body is not JSON") from exc
    if not isinstance(payload, dict):
        raise FetchError("JSON body is not an object")
    return payload
