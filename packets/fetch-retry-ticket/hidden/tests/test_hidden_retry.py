"""Held-out tests for the retry ticket (never shipped to candidates)."""
from __future__ import annotations

import ast
import contextlib
import inspect
import io
import logging
import os
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Iterator
from unittest.mock import patch

from src import client
from tests.fake_http import FakeUrlopen, body, partner_url, raw, refused, status

CLIENT_FILE = Path(client.__file__)


RETRIED = (429, [[variant.shed]])
NOT_RETRIED = tuple(code for code in range(400, 600) if code not in RETRIED)


@contextlib.contextmanager
def _os_level_output() -> Iterator[dict[int, bytes]]:
    """Point file descriptors 1 and 2 at temporary files for the block, then put them back.

    What reaches the descriptors themselves (os.write, a child process, C code) lands in the
    files, beside what goes through sys.stdout and sys.stderr. The dict is filled on exit.
    """
    seen: dict[int, bytes] = {}
    saved: dict[int, int] = {}
    files: dict[int, object] = {}
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()
    try:
        for fd in (1, 2):
            files[fd] = tempfile.TemporaryFile()
            saved[fd] = os.dup(fd)
            os.dup2(files[fd].fileno(), fd)
        yield seen
    finally:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.flush()
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
        for fd, handle in files.items():
            handle.seek(0)
            seen[fd] = handle.read()
            handle.close()


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class HiddenRetryTests(unittest.TestCase):
    def call(self, fake: FakeUrlopen, url: str | None = None) -> tuple[object, list[float]]:
        """Return (result or FetchError, sleep delays), each delay checked to be a plain number."""
        with patch("urllib.request.urlopen", fake), patch("time.sleep") as sleep:
            try:
                outcome: object = client.fetch_json(url or partner_url())
            except client.FetchError as exc:
                outcome = exc
        delays = [c.args[0] for c in sleep.call_args_list]
        for delay in delays:
            self.assertIn(type(delay), (int, float), f"time.sleep was given {delay!r}")
        return outcome, delays

    def assertFailedWith(self, outcome: object, code: int | None) -> None:
        """The outcome is a FetchError whose status is exactly `code` (an int, or None)."""
        self.assertIsInstance(outcome, client.FetchError)
        if code is None:
            self.assertIsNone(outcome.status)
        else:
            self.assertIs(type(outcome.status), int)
            self.assertEqual(outcome.status, code)

    def test_gives_up_after_three_attempts(self) -> None:
        fake = FakeUrlopen(*[status([[variant.shed]])] * 5, body({"late": True}))
        outcome, delays = self.call(fake)
        self.assertFailedWith(outcome, [[variant.shed]])
        self.assertEqual(len(fake.calls), 3)
        self.assertEqual(len(delays), 2)

    def test_429_exhausted_keeps_its_status(self) -> None:
        fake = FakeUrlopen(*[status(429)] * 4, body({"late": True}))
        outcome, _ = self.call(fake)
        self.assertFailedWith(outcome, 429)
        self.assertEqual(len(fake.calls), 3)

    def test_waits_grow_exponentially_and_stay_bounded(self) -> None:
        fake = FakeUrlopen(status([[variant.shed]]), status(429), status([[variant.shed]]), body({"late": True}))
        _, delays = self.call(fake)
        self.assertEqual(len(delays), 2)
        self.assertTrue(all(d > 0 for d in delays), delays)
        self.assertGreaterEqual(delays[1], 2 * delays[0] - 1e-9)
        self.assertLess(sum(delays), 2.0)

    def test_every_wait_doubles_the_one_before(self) -> None:
        """Each wait is twice the last, however many waits there are.

        Three attempts give two waits, and growing by the first wait gives the same two. Where
        the module names its cap MAX_ATTEMPTS (as the sample does), the cap is raised for this
        test so that the third and fourth waits show which rule the loop follows; a module
        without that name is held to the two waits it makes.
        """
        cap = getattr(client, "MAX_ATTEMPTS", None)
        raised = patch.object(client, "MAX_ATTEMPTS", 5) if type(cap) is int else contextlib.nullcontext()
        with raised:
            _, delays = self.call(FakeUrlopen(*[status([[variant.shed]])] * 6, body({"late": True})))
        self.assertGreaterEqual(len(delays), 2)
        self.assertGreater(delays[0], 0)
        for before, after in zip(delays, delays[1:]):
            self.assertAlmostEqual(after, 2 * before, msg=f"waits {delays}")

    def test_every_other_4xx_and_5xx_fails_on_the_first_attempt(self) -> None:
        """Every status from 400 to 599 outside the ticket's 429 and [[variant.shed]] fails at once, unslept.

        The first three wrong statuses fail as subtests with their details; the list of all of
        them fails once at the end, so a client that retries everything stays a short report.
        """
        wrong: list[int] = []
        for code in NOT_RETRIED:
            with self.subTest(code=code):
                fake = FakeUrlopen(status(code), body({"ok": True}))
                outcome, delays = self.call(fake)
                at_once = (
                    isinstance(outcome, client.FetchError)
                    and type(outcome.status) is int
                    and outcome.status == code
                    and (len(fake.calls), delays) == (1, [])
                )
                if not at_once:
                    wrong.append(code)
                    if len(wrong) <= 3:
                        self.assertFailedWith(outcome, code)
                        self.assertEqual((len(fake.calls), delays), (1, []))
        self.assertEqual(wrong, [], "statuses outside 429 and [[variant.shed]] must fail on the first attempt, with their status")

    def test_each_status_of_the_retry_set_is_retried(self) -> None:
        for code in RETRIED:
            with self.subTest(code=code):
                fake = FakeUrlopen(status(code), body({"ok": True}))
                outcome, delays = self.call(fake)
                self.assertIs(type(outcome), dict, f"{code} then 200 gave {outcome!r}")
                self.assertEqual(outcome, {"ok": True})
                self.assertEqual((len(fake.calls), len(delays)), (2, 1))

    def test_connection_errors_are_not_retried(self) -> None:
        fake = FakeUrlopen(refused(), body({"ok": True}))
        outcome, delays = self.call(fake)
        self.assertFailedWith(outcome, None)
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
        """Nothing of the signed URL reaches a log, sys.stdout, sys.stderr, fd 1, fd 2 or the error."""
        marker = "hidden-signature-marker"
        capture = _Capture()
        root = logging.getLogger()
        old_level = root.level
        root.addHandler(capture)
        root.setLevel(logging.DEBUG)
        out, err = io.StringIO(), io.StringIO()
        try:
            with _os_level_output() as raw_output:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    self.call(FakeUrlopen(status([[variant.shed]]), status(429), body({"ok": True})), partner_url(marker))
                    outcome, _ = self.call(
                        FakeUrlopen(status([[variant.shed]]), status([[variant.shed]]), status([[variant.shed]]), body({"late": True})), partner_url(marker)
                    )
        finally:
            root.removeHandler(capture)
            root.setLevel(old_level)
        self.assertEqual(sorted(raw_output), [1, 2])
        seen = "\n".join(capture.lines) + out.getvalue() + err.getvalue()
        seen += raw_output[1].decode("utf-8", "replace") + raw_output[2].decode("utf-8", "replace")
        seen += str(outcome) + repr(getattr(outcome, "args", ()))
        self.assertNotIn(marker, seen)
        self.assertNotIn("signature=", seen)

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
