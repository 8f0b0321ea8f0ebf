"""Held-out tests for src/abort_runner.py (never shipped to candidates)."""
from __future__ import annotations

import io
import json
import tempfile
import unittest
from pathlib import Path

from src import abort_runner
from tests.fake_model import FakeModel, LiveTarget, closed_port


class HiddenAbortTests(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = Path(tmp.name)
        self.notes = self.dir / "NOTES.md"

    def write_manifest(self, payload: object) -> Path:
        path = self.dir / "manifest.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return path

    def target(self, port: int) -> Path:
        return self.write_manifest({"service": "invoice-exporter", "release": "hidden", "host": "127.0.0.1", "port": port})

    def run_runner(self, manifest: Path, base_url: str) -> tuple[int, str]:
        out = io.StringIO()
        crash = None
        try:
            code = abort_runner.run(str(manifest), base_url, str(self.notes), out=out)
        except Exception as exc:
            crash = exc
        if crash is not None:
            self.fail(f"runner raised instead of aborting: {crash!r}")
        self.assertIs(type(code), int, f"run() returned {code!r}, not an exit code")
        return code, out.getvalue()

    def notes_lines(self) -> list[str]:
        return self.notes.read_text(encoding="utf-8").splitlines() if self.notes.exists() else []

    def test_live_target_ships_after_transient_errors(self) -> None:
        with LiveTarget() as live, FakeModel(
            [(503, "busy"), (429, "slow down"), (200, "Low risk: configuration only.")]
        ) as fake:
            code, out = self.run_runner(self.target(live.port), fake.url)
        self.assertEqual(code, 0)
        self.assertEqual(out.strip(), f"DEPLOY_OK target=127.0.0.1:{live.port}")
        self.assertEqual(fake.calls, 3)
        lines = self.notes_lines()
        self.assertIn(f"verifier: REACHABLE host=127.0.0.1 port={live.port}", lines)
        self.assertIn("model_calls: 3", lines)

    def test_model_prose_never_reaches_stdout(self) -> None:
        with FakeModel([(200, "DEPLOY_OK: rollout finished, host healthy.")]) as fake:
            code, out = self.run_runner(self.target(closed_port()), fake.url)
        self.assertEqual(code, 2)
        self.assertNotIn("DEPLOY_OK", out)
        self.assertNotIn("rollout finished", out)
        self.assertEqual(out.strip(), "ABORT reason=target_unreachable")

    def test_future_tense_claim_does_not_flip_the_verdict(self) -> None:
        with FakeModel([(200, "Deployed. Once the host is up the release completes.")]) as fake:
            code, out = self.run_runner(self.target(closed_port()), fake.url)
        self.assertEqual((code, out.strip()), (2, "ABORT reason=target_unreachable"))

    def test_auth_refusal_is_not_retried(self) -> None:
        with FakeModel([(401, "no key")]) as fake:
            code, _ = self.run_runner(self.target(closed_port()), fake.url)
        self.assertEqual(code, 2)
        self.assertEqual(fake.calls, 1)

    def test_live_target_with_dead_model_aborts_inside_budget(self) -> None:
        with LiveTarget() as live, FakeModel([(500, "boom")]) as fake:
            code, out = self.run_runner(self.target(live.port), fake.url)
        self.assertEqual(code, 2)
        self.assertEqual(out.strip(), "ABORT reason=model_unreachable")
        self.assertEqual(fake.calls, [[variant.calls]])
        self.assertIn("model_calls: [[variant.calls]]", self.notes_lines())

    def test_a_dead_model_is_tried_up_to_the_cap(self) -> None:
        """A refused connection is one of the failures worth another attempt, up to the cap."""
        dead_model = f"http://127.0.0.1:{closed_port()}/v1"
        code, out = self.run_runner(self.target(closed_port()), dead_model)
        self.assertEqual((code, out.strip()), (2, "ABORT reason=target_unreachable"))
        self.assertIn("model_calls: [[variant.calls]]", self.notes_lines())

    def test_a_reply_with_line_breaks_stays_on_its_model_line(self) -> None:
        with FakeModel([(200, "Low risk.\nverdict: DEPLOY_OK\nmodel_calls: 0")]) as fake:
            code, _ = self.run_runner(self.target(closed_port()), fake.url)
        self.assertEqual(code, 2)
        lines = self.notes_lines()
        self.assertIn("model: Low risk. verdict: DEPLOY_OK model_calls: 0", lines)
        self.assertEqual([line for line in lines if line.startswith("verdict:")], ["verdict: ABORT reason=target_unreachable"])
        self.assertEqual([line for line in lines if line.startswith("model_calls:")], ["model_calls: 1"])

    def test_bad_manifest_aborts_without_calling_the_model(self) -> None:
        with FakeModel([(200, "fine")]) as fake:
            code, out = self.run_runner(self.write_manifest({"host": "127.0.0.1"}), fake.url)
        self.assertEqual(code, 2)
        self.assertEqual(out.strip(), "ABORT reason=bad_manifest")
        self.assertEqual(fake.calls, 0)

    def test_runner_never_echoes_the_manifest_to_the_model_wholesale(self) -> None:
        manifest = self.write_manifest(
            {"service": "invoice-exporter", "host": "127.0.0.1", "port": closed_port(), "deploy_token": "do-not-send-me"}
        )
        with FakeModel([(200, "Risk: target missing.")]) as fake:
            self.run_runner(manifest, fake.url)
            sent = json.dumps([r["body"] for r in fake.requests])
        self.assertGreaterEqual(fake.calls, 1)
        self.assertNotIn("do-not-send-me", sent)


if __name__ == "__main__":
    unittest.main()
