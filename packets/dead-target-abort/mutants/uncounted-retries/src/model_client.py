"""A single chat call to an OpenAI-compatible endpoint.

chat() retries flaky endpoints by itself so callers get one clean answer.
"""
from __future__ import annotations

import json
import urllib.error
import urllib.request

# Talk to the endpoint directly: proxy settings from the environment must not
# reroute a local or private endpoint.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ModelError(Exception):
    """The model call failed. `status` is the HTTP status, or None for transport failures."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def chat(
    base_url: str,
    prompt: str,
    *,
    api_key: str | None = None,
    model: str = "default",
    timeout: float = 5.0,
) -> str:
    """Send one user message and return the reply text, stripped."""
    body = json.dumps(
        {
            "model": model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0,
        }
    ).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = "Bearer " + api_key
    request = urllib.request.Request(
        base_url.rstrip("/") + "/chat/completions",
        data=body,
        headers=headers,
        method="POST",
    )
    # Free endpoints flap. Keep knocking until one answers, so callers see a
    # single clean call.
    misses = 0
    while True:
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                raw = response.read()
            break
        except urllib.error.HTTPError as exc:
            misses += 1
            if misses >= 6:
                raise ModelError(f"http {exc.code}", status=exc.code) from exc
        except urllib.error.URLError as exc:
            misses += 1
            if misses >= 6:
                raise ModelError(f"transport {type(exc.reason).__name__}") from exc
        except OSError as exc:
            misses += 1
            if misses >= 6:
                raise ModelError(f"transport {type(exc).__name__}") from exc

    try:
        content = json.loads(raw.decode("utf-8"))["choices"][0]["message"]["content"]
    except (UnicodeDecodeError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise ModelError("malformed reply") from exc
    if not isinstance(content, str):
        raise ModelError("malformed reply")
    return content.strip()
