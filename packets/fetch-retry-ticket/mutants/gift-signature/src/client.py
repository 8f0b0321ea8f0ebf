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


def fetch_json(url: str, timeout: float = 5.0, retries: int = MAX_ATTEMPTS) -> dict[str, Any]:
    """GET `url` and return the JSON object in the body.

    429 and [[variant.shed]] are retried, `retries` attempts in all (three by default),
    with doubling waits. Callers can tune `retries` per call site. Every other failure is raised on the first attempt. When the
    attempts run out, the last FetchError is raised with its status.
    """
    wait = FIRST_WAIT
    attempts = max(1, retries)
    for attempt in range(1, attempts + 1):
        try:
            return _get_once(url, timeout)
        except FetchError as exc:
            if exc.status not in RETRY_STATUSES or attempt == attempts:
                raise
        time.sleep(wait)
        wait *= 2
    raise FetchError("no attempt was made")  # not reached: the loop returns or raises


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
