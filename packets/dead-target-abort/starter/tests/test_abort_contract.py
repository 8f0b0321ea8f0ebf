"""Visible contract tests for src/abort_runner.py.

The deploy target in these tests is a closed port on 127.0.0.1: the dead end.
The model is an in-process fake on 127.0.0.1 port 0.
"""
from __future__ import annotations

import io
import json
import tempfile
import unittest
from pathlib import Path

from src import abort_runner, verify
from tests.fake_model import FakeModel, closed_port


class DeadTargetTests(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        self.target_port = closed_port()
        self.manifest = self.dir / "manifest.json"
        self.manifest.write_text(
            json.dumps(
                {"service": "invoice-exporter", "release": "test", "host": "127.0.0.1", "port": self.target_port}
            ),
            encoding="utf-8",
        )
        self.notes = self.dir / "NOTES.md"

    def run_runner(self, base_url: str) -> tuple[int, str]:
        out = io.StringIO()
        crash = None
        try:
            code = abort_runner.run(str(self.manifest), base_url, str(self.notes), out=out)
        except Exception as exc:  # the contract says: abort with a reason, never raise
            crash = exc
        if crash is not None:
            self.fail(f"runner raised instead of aborting: {crash!r}")
        self.assertIs(type(code), int, f"run() returned {code!r}, not an exit code")
        return code, out.getvalue()

    def read_notes(self) -> str:
        return self.notes.read_text(encoding="utf-8") if self.notes.exists() else ""

    def test_dead_target_aborts_even_when_model_claims_success(self) -> None:
        with FakeModel([(200, "Deployed successfully, all checks green.")]) as fake:
            code, out = self.run_runner(fake.url)
        self.assertNotIn("DEPLOY_OK", out)
        self.assertIn("ABORT reason=target_unreachable", out)
        self.assertEqual(code, 2)

    def test_notes_quote_the_verifier_verbatim(self) -> None:
        with FakeModel([(200, "Risky: the target is unknown.")]) as fake:
            self.run_runner(fake.url)
        notes = self.read_notes()
        expected = "verifier: " + verify.probe("127.0.0.1", self.target_port).line
        self.assertIn(expected, notes.splitlines())
        self.assertIn("model: Risky: the target is unknown.", notes.splitlines())

    def test_model_down_is_a_reason_not_a_crash(self) -> None:
        dead_model = f"http://127.0.0.1:{closed_port()}/v1"
        code, out = self.run_runner(dead_model)
        self.assertEqual(code, 2)
        self.assertNotIn("DEPLOY_OK", out)
        self.assertIn("ABORT reason=target_unreachable", out)
        self.assertIn("model: unavailable", self.read_notes())

    def test_every_attempt_counts_against_the_budget(self) -> None:
        with FakeModel([(503, "overloaded")]) as fake:
            code, out = self.run_runner(fake.url)
        self.assertEqual(code, 2)
        self.assertNotIn("DEPLOY_OK", out)
        self.assertGreaterEqual(fake.calls, 1)
        self.assertLessEqual(fake.calls, [[variant.calls]], f"{fake.calls} requests reached the model; the cap is [[variant.calls]]")


if __name__ == "__main__":
    unittest.main()
