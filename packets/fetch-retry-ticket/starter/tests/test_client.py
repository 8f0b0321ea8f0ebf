"""The existing contract of src/client.py. Green on the starter; must stay green."""
from __future__ import annotations

import inspect
import unittest
from unittest.mock import patch

from src import client
from tests.fake_http import FakeUrlopen, body, partner_url, status


class ContractTests(unittest.TestCase):
    def test_public_signature_is_frozen(self) -> None:
        params = inspect.signature(client.fetch_json).parameters
        self.assertEqual(list(params), ["url", "timeout"])
        self.assertEqual(params["timeout"].default, 5.0)

    def test_happy_path_returns_the_object(self) -> None:
        fake = FakeUrlopen(body({"quotes": [1, 2]}))
        with patch("urllib.request.urlopen", fake), patch("time.sleep"):
            result = client.fetch_json(partner_url())
        self.assertIs(type(result), dict)
        self.assertEqual(result, {"quotes": [1, 2]})
        self.assertEqual(len(fake.calls), 1)

    def test_404_is_a_fetch_error_with_its_status(self) -> None:
        fake = FakeUrlopen(status(404))
        with patch("urllib.request.urlopen", fake), patch("time.sleep"):
            with self.assertRaises(client.FetchError) as caught:
                client.fetch_json(partner_url())
        self.assertIs(type(caught.exception.status), int)
        self.assertEqual(caught.exception.status, 404)

    def test_timeout_is_passed_through(self) -> None:
        fake = FakeUrlopen(body({"ok": True}))
        with patch("urllib.request.urlopen", fake), patch("time.sleep"):
            client.fetch_json(partner_url(), 2.5)
        self.assertEqual(fake.calls[0][1], 2.5)


if __name__ == "__main__":
    unittest.main()
