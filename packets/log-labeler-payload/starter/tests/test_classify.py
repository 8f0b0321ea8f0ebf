"""Visible tests for src/classify_logs.py. Do not edit: they are replaced at grading."""
import contextlib
import io
import os
import tempfile
import unittest

from src import classify_logs as cl
from tests.fake_endpoint import FakeEndpoint, closed_port_url


def stamp(i: int) -> str:
    return f"2026-11-29T10:{i // 60:02d}:{i % 60:02d}Z"


def checked(case: unittest.TestCase, labels):
    """The labels as returned, once they are a plain list of plain strings (never a look-alike)."""
    case.assertIs(type(labels), list, f"classify_text returned {type(labels).__name__}, not a list")
    for label in labels:
        case.assertIs(type(label), str, f"label {label!r} is not a str")
    return labels


class EndpointCase(unittest.TestCase):
    def setUp(self):
        self.fake = FakeEndpoint().start()
        self.addCleanup(self.fake.stop)


class TestLabels(EndpointCase):
    def test_labels_follow_the_endpoint(self):
        text = "\n".join([
            f"{stamp(1)} disk write failed on sda1",
            f"{stamp(2)} upstream slow: 900 ms",
            f"{stamp(3)} user 42 signed in",
        ]) + "\n"
        self.assertEqual(checked(self, cl.classify_text(text, self.fake.url)), ["ERROR", "WARN", "INFO"])


class TestPayload(EndpointCase):
    def test_requests_stay_small(self):
        lines = [f"{stamp(i)} worker {i:03d} finished batch {i * 7:04d} in 12 ms" for i in range(60)]
        labels = checked(self, cl.classify_text("\n".join(lines) + "\n", self.fake.url))
        self.assertEqual(len(labels), 60)
        self.assertGreater(self.fake.calls, 0, "no request reached the endpoint")
        biggest = max(len(body) for body in self.fake.bodies)
        self.assertLess(biggest, 1000, f"largest request body is {biggest} bytes: the log file is riding along")


class TestCache(EndpointCase):
    def test_identical_lines_pay_once(self):
        text = "\n".join(["kernel: eth0 link is up"] * 30) + "\n"
        self.assertEqual(checked(self, cl.classify_text(text, self.fake.url)), ["INFO"] * 30)
        self.assertEqual(self.fake.calls, 1, "30 identical lines should cost one model call")

    def test_timestamps_do_not_defeat_the_cache(self):
        text = "\n".join(f"{stamp(i)} cache miss for key users:1" for i in range(20)) + "\n"
        self.assertEqual(checked(self, cl.classify_text(text, self.fake.url)), ["INFO"] * 20)
        self.assertEqual(self.fake.calls, 1, "lines equal once the timestamp is gone should cost one call")


class TestFailure(unittest.TestCase):
    def test_dead_endpoint_raises(self):
        with self.assertRaises(cl.EndpointDown):
            cl.classify_text(f"{stamp(5)} kernel panic: not syncing\n", closed_port_url())

    def test_main_exits_nonzero_when_endpoint_is_down(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "app.log")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(f"{stamp(7)} kernel panic: not syncing\n")
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cl.main([path, "--endpoint", closed_port_url()])
        self.assertIs(type(code), int, f"main() returned {code!r}, not an exit code")
        self.assertNotEqual(code, 0, "a dead endpoint must fail the run")
        self.assertNotIn("INFO", out.getvalue(), "a dead endpoint must not produce labels")


if __name__ == "__main__":
    unittest.main()
