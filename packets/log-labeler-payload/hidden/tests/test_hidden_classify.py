"""Held-out tests for src/classify_logs.py (never shipped to candidates)."""
import contextlib
import io
import os
import tempfile
import unittest

from src import classify_logs as cl
from tests.fake_endpoint import FakeEndpoint, closed_port_url


def stamp(i: int) -> str:
    return f"2026-11-29T11:{i // 60:02d}:{i % 60:02d}Z"


def checked(case: unittest.TestCase, labels):
    """The labels as returned, once they are a plain list of plain strings (never a look-alike)."""
    case.assertIs(type(labels), list, f"classify_text returned {type(labels).__name__}, not a list")
    for label in labels:
        case.assertIs(type(label), str, f"label {label!r} is not a str")
    return labels


def started(case: unittest.TestCase, **kwargs) -> FakeEndpoint:
    fake = FakeEndpoint(**kwargs).start()
    case.addCleanup(fake.stop)
    return fake


def biggest_body(case: unittest.TestCase, lines: list[str]) -> int:
    fake = started(case)
    checked(case, cl.classify_text("\n".join(lines) + "\n", fake.url))
    case.assertGreater(fake.calls, 0, "no request reached the endpoint")
    return max(len(body) for body in fake.bodies)


class TestHiddenPayload(unittest.TestCase):
    def test_payload_does_not_grow_with_the_file(self):
        def lines(n):
            return [f"{stamp(i)} job {i:03d} wrote shard {i:03d} to cold storage" for i in range(n)]
        short, long = biggest_body(self, lines(5)), biggest_body(self, lines(40))
        self.assertLessEqual(long, short + 16, f"5 lines: {short} bytes per request, 40 lines: {long}")

    def test_a_huge_line_is_cut_before_it_is_sent(self):
        fake = started(self)
        labels = checked(self, cl.classify_text(f"{stamp(1)} payload " + "x" * 5000 + "\n", fake.url))
        self.assertEqual(labels, ["INFO"])
        self.assertLess(max(len(body) for body in fake.bodies), 1000)


class TestHiddenCache(unittest.TestCase):
    def test_space_separated_timestamps_with_millis(self):
        fake = started(self)
        text = "\n".join(f"2026-11-29 10:02:{i:02d},{i * 37 % 1000:03d} retrying upload part 3" for i in range(15))
        self.assertEqual(checked(self, cl.classify_text(text, fake.url)), ["WARN"] * 15)
        self.assertEqual(fake.calls, 1)

    def test_eighty_stamped_repeats_cost_one_call(self):
        fake = started(self)
        text = "\n".join(f"{stamp(i)} healthcheck ok" for i in range(80))
        self.assertEqual(checked(self, cl.classify_text(text, fake.url)), ["INFO"] * 80)
        self.assertEqual(fake.calls, 1)

    def test_distinct_lines_keep_their_order_and_their_own_call(self):
        fake = started(self)
        kinds = ["db connection refused", "gc pause slow", "request served", "token denied", "cron tick"]
        lines = [f"{stamp(i)} {kinds[i % 5]}" for i in range(20)]
        expected = ["ERROR", "WARN", "INFO", "ERROR", "INFO"] * 4
        self.assertEqual(checked(self, cl.classify_text("\n".join(lines), fake.url)), expected)
        self.assertEqual(fake.calls, 5)

    def test_blank_lines_are_skipped_not_labelled(self):
        fake = started(self)
        text = f"{stamp(1)} request served\n\n   \n{stamp(2)} disk failed\n"
        self.assertEqual(checked(self, cl.classify_text(text, fake.url)), ["INFO", "ERROR"])


class TestHiddenFailure(unittest.TestCase):
    def test_http_500_is_endpoint_down(self):
        fake = started(self, status=500, reply="ERROR")
        with self.assertRaises(cl.EndpointDown):
            cl.classify_text(f"{stamp(1)} request served\n", fake.url)

    def test_a_chatty_reply_is_an_error_not_a_label(self):
        fake = started(self, reply="I think this line looks fine to me")
        with self.assertRaises(cl.ClassifierError):
            cl.classify_text(f"{stamp(1)} request served\n", fake.url)

    def test_a_word_that_only_starts_like_a_label_is_not_one(self):
        for reply in ("WARNING", "Informational.", "errors everywhere"):
            with self.subTest(reply=reply):
                fake = started(self, reply=reply)
                with self.assertRaises(cl.ClassifierError):
                    cl.classify_text(f"{stamp(1)} request served\n", fake.url)

    def test_garbage_instead_of_json_is_an_error(self):
        fake = started(self, raw=b"<html>upstream reset</html>")
        with self.assertRaises(cl.ClassifierError):
            cl.classify_text(f"{stamp(1)} request served\n", fake.url)

    def test_case_and_punctuation_in_the_reply_are_forgiven(self):
        fake = started(self, reply=" warn.\n")
        self.assertEqual(checked(self, cl.classify_text(f"{stamp(1)} something odd\n", fake.url)), ["WARN"])

    def test_dead_endpoint_is_also_down_for_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "app.log")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(f"{stamp(3)} disk failed\n")
            with self.assertRaises(cl.EndpointDown):
                cl.classify_file(path, closed_port_url())


class TestHiddenMain(unittest.TestCase):
    def run_main(self, text: str, endpoint: str):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "app.log")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cl.main([path, "--endpoint", endpoint])
        self.assertIs(type(code), int, f"main() returned {code!r}, not an exit code")
        return code, out.getvalue(), err.getvalue()

    def test_success_prints_one_label_per_line_and_exits_zero(self):
        fake = started(self)
        code, out, _ = self.run_main(f"{stamp(1)} disk failed\n{stamp(2)} request served\n", fake.url)
        self.assertEqual(code, 0)
        self.assertEqual([row.split("\t")[0] for row in out.splitlines()], ["ERROR", "INFO"])

    def test_dead_endpoint_prints_nothing_and_explains_on_stderr(self):
        code, out, err = self.run_main(f"{stamp(1)} disk failed\n{stamp(2)} request served\n", closed_port_url())
        self.assertNotEqual(code, 0)
        self.assertEqual(out, "")
        self.assertTrue(err.strip(), "say why the run failed")

    def test_junk_reply_fails_the_run(self):
        fake = started(self, reply="Sure! Here is the label you asked for")
        code, out, _ = self.run_main(f"{stamp(1)} request served\n", fake.url)
        self.assertNotEqual(code, 0)
        self.assertNotIn("INFO", out)


if __name__ == "__main__":
    unittest.main()
