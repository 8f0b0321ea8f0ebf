"""Test helpers: an in-process fake model endpoint and local TCP targets.

Everything binds to 127.0.0.1 port 0. A "dead" address is a port held bound
and never listened on: a connection to it is refused, and no other socket of the
run can take it.
"""
from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


# The sockets behind closed_port(), held until the test process ends.
_HELD: list[socket.socket] = []


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on: bound and held, never listened on.

    A port closed again would be free for the next bind to port 0 (the fake model's,
    say), which would then answer on the "dead" address.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    _HELD.append(sock)
    return sock.getsockname()[1]


class LiveTarget:
    """A listening TCP socket on 127.0.0.1, standing in for a real deploy target."""

    def __enter__(self) -> "LiveTarget":
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


class FakeModel:
    """An OpenAI-compatible /chat/completions endpoint that follows a script.

    `script` is a list of (status, text). Request n gets entry n; once the list
    runs out, the last entry repeats. Every request is recorded.
    """

    def __init__(self, script: list[tuple[int, str]]) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw.decode("utf-8"))
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                status, text = fake._record(self.path, body)
                if status == 200:
                    payload = {
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 5},
                    }
                else:
                    payload = {"error": {"message": text}}
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )

    def _record(self, path: str, body: dict) -> tuple[int, str]:
        with self._lock:
            self.requests.append({"path": path, "body": body})
            index = min(len(self.requests), len(self.script)) - 1
            return self.script[index]

    @property
    def calls(self) -> int:
        with self._lock:
            return len(self.requests)

    def __enter__(self) -> "FakeModel":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=1)
