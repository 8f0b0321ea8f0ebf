"""A tiny chat-completions endpoint that runs inside the test process.

It listens on 127.0.0.1 with a port the OS picks, records every request body,
and labels a request by the last line of its last user message.
"""
from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ERROR_WORDS = ("fail", "panic", "refused", "denied", "corrupt")
WARN_WORDS = ("slow", "retry", "retrying", "nearly full", "deprecated")


def label_for(text: str) -> str:
    stripped = text.strip()
    last = stripped.splitlines()[-1].lower() if stripped else ""
    if any(word in last for word in ERROR_WORDS):
        return "ERROR"
    if any(word in last for word in WARN_WORDS):
        return "WARN"
    return "INFO"


class FakeEndpoint:
    """Start with .start(), stop with .stop(). `bodies` holds the raw request bodies."""

    def __init__(self, reply: str | None = None, status: int = 200, raw: bytes | None = None):
        self.reply = reply      # fixed reply text; None means "label by content"
        self.status = status    # HTTP status to answer with
        self.raw = raw          # raw bytes to send instead of a JSON reply
        self.bodies: list[bytes] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def calls(self) -> int:
        with self._lock:
            return len(self.bodies)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1/chat/completions"

    def start(self) -> "FakeEndpoint":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server naming)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with fake._lock:
                    fake.bodies.append(body)
                if fake.raw is not None:
                    out = fake.raw
                else:
                    content = fake.reply
                    if content is None:
                        try:
                            messages = json.loads(body.decode("utf-8"))["messages"]
                            user = [m["content"] for m in messages if m.get("role") == "user"]
                            content = label_for(user[-1] if user else "")
                        except (ValueError, KeyError, TypeError):
                            content = "INFO"
                    out = json.dumps({
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": len(body) // 4, "completion_tokens": 1},
                    }).encode("utf-8")
                self.send_response(fake.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args):  # keep the test output quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: bind port 0, read the port, close."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}/v1/chat/completions"
