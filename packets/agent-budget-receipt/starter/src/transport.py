"""The HTTP side of the agent: one function per chat-completions call.

This file works; you may change it, but you should not need to.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request

# Talk to the endpoint directly: never through a proxy picked up from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ModelError(RuntimeError):
    """A call to the model failed: refused, timed out, HTTP error or unreadable reply."""


class Throttled(ModelError):
    """The endpoint answered 429. `retry_after` is in seconds, or None if it did not say."""

    def __init__(self, message: str = "429 Too Many Requests", retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None  # an HTTP date: treat as "did not say"


def http_chat(endpoint: str, model: str, timeout: float = 60.0, api_key: str | None = None):
    """Return chat(messages) -> {"content": str, "usage": dict | None} for one endpoint."""

    def chat(messages: list[dict]) -> dict:
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = "Bearer " + api_key
        request = urllib.request.Request(
            endpoint,
            data=json.dumps({"model": model, "messages": messages}).encode("utf-8"),
            headers=headers,
            method="POST",
        )
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            if exc.code == 429:
                raise Throttled(retry_after=_retry_after(exc.headers.get("Retry-After"))) from exc
            raise ModelError(f"HTTP {exc.code} from the endpoint") from exc
        except OSError as exc:  # refused, reset, DNS, timeout
            raise ModelError(f"endpoint unreachable: {exc}") from exc
        try:
            body = json.loads(raw.decode("utf-8"))
            content = body["choices"][0]["message"]["content"]
        except (UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelError(f"unreadable reply: {raw[:80]!r}") from exc
        return {"content": str(content), "usage": body.get("usage")}

    return chat
