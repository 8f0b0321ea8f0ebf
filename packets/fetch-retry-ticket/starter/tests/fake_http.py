"""Test helpers: a scripted stand-in for urllib.request.urlopen.

Tests patch urllib.request.urlopen with a FakeUrlopen, so nothing goes on the
network. The URLs point at a closed port on 127.0.0.1 anyway, so a client that
dodges the patch fails fast instead of reaching anything real.
"""
from __future__ import annotations

import io
import json
import socket
import urllib.error


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, read, closed)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def partner_url(marker: str = "do-not-log-me") -> str:
    """A partner URL whose query string stands in for a signed token."""
    return f"http://127.0.0.1:{closed_port()}/v2/quotes?region=eu&signature={marker}"


class TooManyCalls(BaseException):
    """Raised by the fake once a client keeps calling far past any sane limit.

    A BaseException, so a client that swallows Exception cannot loop forever.
    """


class _Response:
    def __init__(self, body: bytes) -> None:
        self._body = body

    def __enter__(self) -> "_Response":
        return self

    def __exit__(self, *exc: object) -> bool:
        return False

    def read(self) -> bytes:
        return self._body


def status(code: int) -> tuple[str, object]:
    return ("status", code)


def body(payload: object) -> tuple[str, object]:
    return ("body", json.dumps(payload).encode("utf-8"))


def raw(data: bytes) -> tuple[str, object]:
    return ("body", data)


def refused() -> tuple[str, object]:
    return ("refused", None)


class FakeUrlopen:
    """Each call takes the next scripted outcome; the last one repeats."""

    LIMIT = 50

    def __init__(self, *outcomes: tuple[str, object]) -> None:
        self.outcomes = list(outcomes)
        self.calls: list[tuple[object, object]] = []

    def __call__(self, request: object, timeout: object = None, **_: object) -> _Response:
        self.calls.append((request, timeout))
        if len(self.calls) > self.LIMIT:
            raise TooManyCalls(f"{len(self.calls)} calls to urlopen")
        kind, value = self.outcomes[min(len(self.calls), len(self.outcomes)) - 1]
        if kind == "status":
            raise urllib.error.HTTPError(
                getattr(request, "full_url", "http://127.0.0.1/"), value, "scripted", None, io.BytesIO(b"")
            )
        if kind == "refused":
            raise urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))
        return _Response(value)
