"""HTTP front of the intake service, built on http.server."""
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from intake.store import IntentLedger

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8088


def parse_intent(raw):
    """Turn a request body into an intent dict, or None if it is unusable."""
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    # TODO: check the fields against the contract in PROMPT.md.
    return body


class IntakeHandler(BaseHTTPRequestHandler):
    server_version = "intake/0.1"

    def log_message(self, fmt, *args):
        """Keep test output quiet."""

    def _reply(self, status, payload):
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if urlsplit(self.path).path == "/healthz":
            self._reply(200, {"ok": True})
        else:
            self._reply(404, {"error": "not_found"})

    def do_POST(self):
        if urlsplit(self.path).path != "/v1/intents":
            self._reply(404, {"error": "not_found"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        key = self.headers.get("Idempotency-Key")
        if not key:
            self._reply(400, {"error": "missing_idempotency_key"})
            return
        intent = parse_intent(raw)
        if intent is None:
            self._reply(400, {"error": "invalid_body"})
            return
        status, payload = self.server.ledger.accept(key, intent)
        self._reply(status, payload)


def make_server(data_dir, host=DEFAULT_HOST, port=DEFAULT_PORT):
    """Bind the service; the caller runs serve_forever(). Port 0 picks a free port."""
    server = ThreadingHTTPServer((host, port), IntakeHandler)
    server.ledger = IntentLedger(data_dir)
    return server


def main():
    server = make_server(Path("data"))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
