"""Held-out tests for the intake service: restarts, strictness, scope."""
import ast
import http.client
import inspect
import json
import sys
import tempfile
import threading
import unittest
from pathlib import Path

from intake import app

ROOT = Path(__file__).resolve().parents[1]
GOOD = {"amount_cents": 2500, "currency": "USD"}


def exact(value):
    """`value` with the type of every leaf beside it, so 2500.0 or true never pass for 2500 or 1."""
    if isinstance(value, dict):
        return {key: exact(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    return (type(value).__name__, value)


class Harness(unittest.TestCase):
    def assertExact(self, actual, expected, msg=None):
        """Equal, and of the same JSON types all the way down."""
        self.assertEqual(actual, expected, msg)
        self.assertEqual(exact(actual), exact(expected), msg)

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = Path(tmp.name)
        self.data_dir = self.root / "data"
        self.ledger = self.data_dir / "intents.jsonl"
        self.server = None
        self.boot()
        self.addCleanup(self.halt)

    def boot(self):
        self.server = app.make_server(self.data_dir, host="127.0.0.1", port=0)
        self.port = self.server.server_address[1]
        self.worker = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True
        )
        self.worker.start()

    def halt(self):
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.worker.join(2)
            self.server = None

    def restart(self):
        self.halt()
        self.boot()

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

    def ledger_bytes(self):
        return self.ledger.read_bytes() if self.ledger.exists() else b""

    def ledger_rows(self):
        text = self.ledger_bytes().decode("utf-8")
        return [json.loads(l) for l in text.splitlines() if l.strip()]


class RestartTests(Harness):
    def test_restart_replay_is_200_without_appending(self):
        first = self.call("POST", "/v1/intents", GOOD, key="pay_r1")
        self.assertExact(first[0], 201)
        self.restart()
        self.assertExact(self.call("POST", "/v1/intents", GOOD, key="pay_r1"), (200, first[1]))
        self.assertExact(len(self.ledger_rows()), 1)

    def test_restart_reads_ledger_left_on_disk(self):
        self.halt()
        self.data_dir.mkdir()
        row = {"id": "pay_old", "amount_cents": 700, "currency": "USD"}
        self.ledger.write_text(json.dumps(row) + "\n", encoding="utf-8")
        self.boot()
        replay = self.call("POST", "/v1/intents", {"amount_cents": 700, "currency": "USD"}, key="pay_old")
        self.assertExact(replay, (200, row))
        clash = self.call("POST", "/v1/intents", GOOD, key="pay_old")
        self.assertExact(clash, (409, {"error": "idempotency_conflict"}))
        self.assertExact(self.ledger_rows(), [row])

    def test_conflict_after_restart_is_409(self):
        self.call("POST", "/v1/intents", GOOD, key="pay_r2")
        self.restart()
        clash = self.call("POST", "/v1/intents", {"amount_cents": 1, "currency": "USD"}, key="pay_r2")
        self.assertExact(clash, (409, {"error": "idempotency_conflict"}))
        self.assertExact(len(self.ledger_rows()), 1)


class HistoryTests(Harness):
    def test_conflict_leaves_the_file_byte_for_byte(self):
        self.call("POST", "/v1/intents", GOOD, key="pay_h1")
        self.call("POST", "/v1/intents", {"amount_cents": 900, "currency": "USD"}, key="pay_h2")
        before = self.ledger_bytes()
        clash = self.call("POST", "/v1/intents", {"amount_cents": 1, "currency": "USD"}, key="pay_h1")
        self.assertExact(clash, (409, {"error": "idempotency_conflict"}))
        replay = self.call("POST", "/v1/intents", GOOD, key="pay_h1")
        self.assertExact(replay[0], 200)
        self.assertExact(self.ledger_bytes(), before)

    def test_replay_ignores_key_order_in_the_body(self):
        first = self.call("POST", "/v1/intents", GOOD, key="pay_h3")
        again = self.call("POST", "/v1/intents", b'{"currency": "USD", "amount_cents": 2500}', key="pay_h3")
        self.assertExact(again, (200, first[1]))
        self.assertExact(len(self.ledger_rows()), 1)

    def test_distinct_keys_each_get_a_line(self):
        for n in range(3):
            status, _ = self.call("POST", "/v1/intents", GOOD, key=f"pay_d{n}")
            self.assertExact(status, 201)
        self.assertExact([r["id"] for r in self.ledger_rows()], ["pay_d0", "pay_d1", "pay_d2"])


class StrictnessTests(Harness):
    def test_bodies_outside_the_contract_are_refused_and_not_written(self):
        bad = [
            b'{"amount_cents": 25.0, "currency": "USD"}',
            b'{"amount_cents": 2500, "currency": "usd"}',
            b'{"amount_cents": true, "currency": "USD"}',
            b'{"amount_cents": "2500", "currency": "USD"}',
            b'{"amount_cents": 0, "currency": "USD"}',
            b'{"amount_cents": 2500, "currency": "USD", "memo": "rent"}',
            b'{"currency": "USD"}',
            b'[2500, "USD"]',
            b'"USD"',
            b"\xff\xfe{}",
            b"",
        ]
        for n, raw in enumerate(bad):
            status, payload = self.call("POST", "/v1/intents", raw, key=f"k-strict-{n}")
            self.assertExact((status, payload), (400, {"error": "invalid_body"}), msg=raw)
        self.assertExact(self.ledger_bytes(), b"")

    def test_stored_row_is_exactly_id_amount_currency(self):
        self.call("POST", "/v1/intents", GOOD, key="pay_s1")
        self.assertExact(self.ledger_rows(), [{"id": "pay_s1", "amount_cents": 2500, "currency": "USD"}])


class ScopeTests(Harness):
    def test_no_routes_beyond_the_contract(self):
        probes = [
            ("GET", "/metrics"),
            ("GET", "/v1/intents"),
            ("GET", "/v1/intents/pay_1"),
            ("GET", "/readyz"),
            ("GET", "/healthz/deep"),
            ("GET", "/healthzz"),
            ("GET", "/"),
            ("POST", "/v1/intents/pay_1"),
            ("POST", "/healthz"),
        ]
        for method, path in probes:
            status, _ = self.call(method, path, GOOD if method == "POST" else None, key="k-scope")
            self.assertExact(status, 404, msg=f"{method} {path}")
        self.assertExact(self.ledger_bytes(), b"")

    def test_only_the_ledger_is_created(self):
        self.call("POST", "/v1/intents", GOOD, key="pay_c1")
        self.call("POST", "/v1/intents", b"{oops", key="pay_c2")
        self.assertExact(sorted(p.name for p in self.root.iterdir()), ["data"])
        self.assertExact(sorted(p.name for p in self.data_dir.iterdir()), ["intents.jsonl"])

    def test_default_bind_is_loopback_8088(self):
        params = inspect.signature(app.make_server).parameters
        self.assertExact(params["host"].default, "127.0.0.1")
        self.assertExact(params["port"].default, 8088)

    def test_standard_library_only(self):
        allowed = set(sys.stdlib_module_names) | {"intake"}
        outside = []
        for source in sorted((ROOT / "intake").rglob("*.py")):
            tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    if name.split(".")[0] not in allowed:
                        outside.append(f"{source.relative_to(ROOT)}: {name}")
        self.assertExact(outside, [], "imports outside the standard library")


if __name__ == "__main__":
    unittest.main()
