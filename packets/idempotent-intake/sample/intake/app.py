"""HTTP front of the intake service, built on http.server. Two routes, no more."""
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from intake.store import IntentLedger

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8088
INTENT_FIELDS = {"amount_cents", "currency"}


def parse_intent(raw):
    """Return {"amount_cents", "currency"} from a request body, or None.

    Strict on purpose: nothing is coerced, rounded, case-folded or dropped.
    A body that is not exactly the contract is refused before any write.
    """
    try:
        body = json.loads(raw.decode("utf-8"))
    except ValueError:  # covers bad UTF-8 and bad JSON
        return None
    if not isinstance(body, dict) or set(body) != INTENT_FIELDS:
        return None
    amount = body["amount_cents"]
    # bool is a subclass of int, and 25.0 is a float: neither is an amount.
    if type(amount) is not int or amount <= 0:
        return None
    if body["currency"] != "USD":
        return None
    return {"amount_cents": amount, "currency": "USD"}


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
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        raw = self.rfile.read(length) if length > 0 else b""
        key = self.headers.get("Idempotency-Key")
        if not key:
            self._reply(400, {"error": "missing_idempotency_key"})
            return
        intent = parse_intent(raw) if length >= 0 else None
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
