"""Held-out tests for the retry ticket (never shipped to candidates)."""
from __future__ import annotations

import ast
import contextlib
import inspect
import io
import logging
import sys
import unittest
from pathlib import Path
from unittest.mock import patch

from src import client
from tests.fake_http import FakeUrlopen, body, partner_url, raw, refused, status

CLIENT_FILE = Path(client.__file__)


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class HiddenRetryTests(unittest.TestCase):
    def call(self, fake: FakeUrlopen, url: str | None = None) -> tuple[object, list[float]]:
        """Return (result or FetchError, sleep delays)."""
        with patch("urllib.request.urlopen", fake), patch("time.sleep") as sleep:
            try:
                outcome: object = client.fetch_json(url or partner_url())
            except client.FetchError as exc:
                outcome = exc
        return outcome, [c.args[0] for c in sleep.call_args_list]

    def test_gives_up_after_three_attempts(self) -> None:
        fake = FakeUrlopen(*[status(503)] * 5, body({"late": True}))
        outcome, delays = self.call(fake)
        self.assertIsInstance(outcome, client.FetchError)
        self.assertEqual(outcome.status, 503)
        self.assertEqual(len(fake.calls), 3)
        self.assertEqual(len(delays), 2)

    def test_429_exhausted_keeps_its_status(self) -> None:
        fake = FakeUrlopen(*[status(429)] * 4, body({"late": True}))
        outcome, _ = self.call(fake)
        self.assertIsInstance(outcome, client.FetchError)
        self.assertEqual(outcome.status, 429)
        self.assertEqual(len(fake.calls), 3)

    def test_waits_grow_exponentially_and_stay_bounded(self) -> None:
        fake = FakeUrlopen(status(503), status(429), status(503), body({"late": True}))
        _, delays = self.call(fake)
        self.assertEqual(len(delays), 2)
        self.assertTrue(all(d > 0 for d in delays), delays)
        self.assertGreaterEqual(delays[1], 2 * delays[0] - 1e-9)
        self.assertLess(sum(delays), 2.0)

    def test_other_statuses_fail_on_the_first_attempt(self) -> None:
        for code in (400, 401, 403, 500, 502):
            with self.subTest(code=code):
                fake = FakeUrlopen(status(code), body({"ok": True}))
                outcome, delays = self.call(fake)
                self.assertIsInstance(outcome, client.FetchError)
                self.assertEqual(outcome.status, code)
                self.assertEqual((len(fake.calls), delays), (1, []))

    def test_connection_errors_are_not_retried(self) -> None:
        fake = FakeUrlopen(refused(), body({"ok": True}))
        outcome, delays = self.call(fake)
        self.assertIsInstance(outcome, client.FetchError)
        self.assertIsNone(outcome.status)
        self.assertEqual((len(fake.calls), delays), (1, []))

    def test_bad_json_is_not_retried(self) -> None:
        fake = FakeUrlopen(raw(b"<html>busy</html>"), body({"ok": True}))
        outcome, delays = self.call(fake)
        self.assertIsInstance(outcome, client.FetchError)
        self.assertEqual((len(fake.calls), delays), (1, []))

    def test_json_array_body_is_refused(self) -> None:
        fake = FakeUrlopen(body([{"quote": 1}]), body({"ok": True}))
        outcome, delays = self.call(fake)
        self.assertIsInstance(outcome, client.FetchError)
        self.assertEqual((len(fake.calls), delays), (1, []))

    def test_url_never_reaches_logs_output_or_errors(self) -> None:
        marker = "hidden-signature-marker"
        capture = _Capture()
        root = logging.getLogger()
        old_level = root.level
        root.addHandler(capture)
        root.setLevel(logging.DEBUG)
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                self.call(FakeUrlopen(status(503), status(429), body({"ok": True})), partner_url(marker))
                outcome, _ = self.call(
                    FakeUrlopen(status(503), status(503), status(503), body({"late": True})), partner_url(marker)
                )
        finally:
            root.removeHandler(capture)
            root.setLevel(old_level)
        seen = "\n".join(capture.lines) + out.getvalue() + err.getvalue()
        seen += str(outcome) + repr(getattr(outcome, "args", ()))
        self.assertNotIn(marker, seen)

    def test_public_surface_unchanged(self) -> None:
        self.assertEqual(list(inspect.signature(client.fetch_json).parameters), ["url", "timeout"])
        self.assertEqual(list(inspect.signature(client.FetchError).parameters), ["message", "status"])
        self.assertTrue(issubclass(client.FetchError, Exception))

    def test_standard_library_only(self) -> None:
        tree = ast.parse(CLIENT_FILE.read_text(encoding="utf-8"))
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
        outside = sorted(m for m in imported if m not in sys.stdlib_module_names and m != "src")
        self.assertEqual(outside, [])


if __name__ == "__main__":
    unittest.main()
