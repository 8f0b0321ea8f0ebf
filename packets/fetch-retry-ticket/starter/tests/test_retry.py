"""The ticket: retry 429 and [[variant.shed]] with growing waits. Red on the starter."""
from __future__ import annotations

import unittest
from unittest.mock import patch

from src import client
from tests.fake_http import FakeUrlopen, body, partner_url, status


class RetryTests(unittest.TestCase):
    def fetch(self, fake: FakeUrlopen) -> tuple[object, list[float]]:
        """Run fetch_json against the fake with time.sleep patched; FetchError becomes a test failure."""
        with patch("urllib.request.urlopen", fake), patch("time.sleep") as sleep:
            failure = None
            try:
                result = client.fetch_json(partner_url())
            except client.FetchError as exc:
                failure = exc
        if failure is not None:
            self.fail(f"fetch_json gave up after {len(fake.calls)} call(s): {failure!r}")
        self.assertIs(type(result), dict)
        delays = [c.args[0] for c in sleep.call_args_list]
        for delay in delays:
            self.assertIn(type(delay), (int, float), f"time.sleep was given {delay!r}")
        return result, delays

    def test_[[variant.shed]]_twice_then_success(self) -> None:
        fake = FakeUrlopen(status([[variant.shed]]), status([[variant.shed]]), body({"ok": True}))
        result, delays = self.fetch(fake)
        self.assertEqual(result, {"ok": True})
        self.assertEqual(len(fake.calls), 3)
        self.assertEqual(len(delays), 2)
        self.assertLess(delays[0], delays[1])

    def test_429_is_retried(self) -> None:
        fake = FakeUrlopen(status(429), body({"ok": True}))
        result, delays = self.fetch(fake)
        self.assertEqual(result, {"ok": True})
        self.assertEqual(len(fake.calls), 2)
        self.assertEqual(len(delays), 1)

    def test_404_is_not_retried(self) -> None:
        fake = FakeUrlopen(status(404), body({"ok": True}))
        with patch("urllib.request.urlopen", fake), patch("time.sleep") as sleep:
            with self.assertRaises(client.FetchError):
                client.fetch_json(partner_url())
        self.assertEqual(len(fake.calls), 1)
        sleep.assert_not_called()


if __name__ == "__main__":
    unittest.main()
