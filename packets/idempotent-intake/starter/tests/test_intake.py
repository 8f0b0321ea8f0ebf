"""Visible tests for the intake service. Protected: do not edit."""
import http.client
import json
import tempfile
import threading
import unittest
from pathlib import Path

from intake import app

GOOD = {"amount_cents": 2500, "currency": "USD"}


def exact(value):
    """`value` with the type of every leaf beside it, so 2500.0 or true never pass for 2500 or 1."""
    if isinstance(value, dict):
        return {key: exact(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    return (type(value).__name__, value)


class IntakeTests(unittest.TestCase):
    def assertExact(self, actual, expected, msg=None):
        """Equal, and of the same JSON types all the way down."""
        self.assertEqual(actual, expected, msg)
        self.assertEqual(exact(actual), exact(expected), msg)

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.data_dir = Path(tmp.name) / "data"
        self.ledger = self.data_dir / "intents.jsonl"
        self.server = app.make_server(self.data_dir, host="127.0.0.1", port=0)
        self.port = self.server.server_address[1]
        worker = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
        )
        worker.start()

        def stop():
            self.server.shutdown()
            self.server.server_close()
            worker.join(2)

        self.addCleanup(stop)

    def call(self, method, path, body=None, key=None):
        if body is None or isinstance(body, bytes):
            data = body
        else:
            data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if key is not None:
            headers["Idempotency-Key"] = key
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            conn.request(method, path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        finally:
            conn.close()
        try:
            payload = json.loads(raw) if raw else None
        except ValueError:
            payload = raw
        return resp.status, payload

    def ledger_lines(self):
        if not self.ledger.exists():
            return []
        return [l for l in self.ledger.read_text(encoding="utf-8").splitlines() if l.strip()]

    def test_healthz(self):
        self.assertExact(self.call("GET", "/healthz"), (200, {"ok": True}))

    def test_missing_key_is_400_and_writes_nothing(self):
        status, payload = self.call("POST", "/v1/intents", GOOD)
        self.assertExact((status, payload), (400, {"error": "missing_idempotency_key"}))
        self.assertExact(self.ledger_lines(), [])

    def test_malformed_json_is_400_and_writes_nothing(self):
        status, payload = self.call("POST", "/v1/intents", b"{not json", key="k-bad")
        self.assertExact((status, payload), (400, {"error": "invalid_body"}))
        self.assertExact(self.ledger_lines(), [])

    def test_schema_violations_are_400_and_write_nothing(self):
        bad_bodies = [
            {"amount_cents": -5, "currency": "USD"},
            {"amount_cents": 100, "currency": "EUR"},
            {"amount_cents": 100},
        ]
        for n, body in enumerate(bad_bodies):
            status, payload = self.call("POST", "/v1/intents", body, key=f"k-{n}")
            self.assertExact((status, payload), (400, {"error": "invalid_body"}), msg=body)
        self.assertExact(self.ledger_lines(), [])

    def test_first_post_is_201_and_appends_one_line(self):
        status, payload = self.call("POST", "/v1/intents", GOOD, key="pay_1")
        self.assertExact(status, 201)
        self.assertExact(payload, {"id": "pay_1", "amount_cents": 2500, "currency": "USD"})
        lines = self.ledger_lines()
        self.assertExact(len(lines), 1)
        self.assertExact(json.loads(lines[0]), payload)

    def test_replay_returns_original_without_appending(self):
        first = self.call("POST", "/v1/intents", GOOD, key="pay_2")
        again = self.call("POST", "/v1/intents", GOOD, key="pay_2")
        self.assertExact(first[0], 201)
        self.assertExact(again, (200, first[1]))
        self.assertExact(len(self.ledger_lines()), 1)

    def test_conflict_is_409_without_appending(self):
        self.call("POST", "/v1/intents", GOOD, key="pay_3")
        status, payload = self.call(
            "POST", "/v1/intents", {"amount_cents": 1, "currency": "USD"}, key="pay_3"
        )
        self.assertExact((status, payload), (409, {"error": "idempotency_conflict"}))
        self.assertExact(len(self.ledger_lines()), 1)


if __name__ == "__main__":
    unittest.main()
