"""Held-out checks for the gate: edited logs, tampered journals, order after a re-run, and the
command line and test runner the session scripts depend on."""
import contextlib
import hashlib
import io
import json
import os
import subprocess
import unittest
from unittest.mock import patch

from src.gate import GateError, main, run_tests
from tests.gate_support import GREEN, RED, RED_OUTPUT, GateCase


class TestRedEvidence(GateCase):
    def test_red_log_edited_after_capture_is_refused(self):
        gate = self.make_gate(RED)
        gate.red()
        self.write("red.log", "FAILED (failures=1)\n")
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.model()
        self.assertEqual(self.steps(gate), ["red"])

    def test_journaled_passing_red_is_refused(self):
        gate = self.make_gate()
        log = self.write("red.log", RED_OUTPUT)
        digest = hashlib.sha256(log.read_bytes()).hexdigest()
        line = {"at": 5.0, "step": "red", "rc": 0, "sha256": digest}
        self.write("gate.jsonl", json.dumps(line) + "\n")
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.model()

    def test_journaled_red_without_exit_code_is_refused(self):
        gate = self.make_gate()
        log = self.write("red.log", RED_OUTPUT)
        digest = hashlib.sha256(log.read_bytes()).hexdigest()
        self.write("gate.jsonl", json.dumps({"at": 5.0, "step": "red", "sha256": digest}) + "\n")
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.model()

    def test_blank_prompt_keeps_window_shut(self):
        gate = self.make_gate(RED)
        gate.red()
        self.write_prompt("   \n\n")
        with self.assertRaises(GateError):
            gate.model()

    def test_non_ascii_output_is_kept_byte_for_byte(self):
        output = "FAIL: test_refund \u2717 total 1\u202f700 != 1\u202f300\nFAILED (failures=1)\n"
        gate = self.make_gate((1, output))
        gate.red()
        self.assertEqual(gate.red_log.read_bytes(), output.encode("utf-8"))
        self.write_prompt()
        gate.model()
        self.assertEqual(self.steps(gate), ["red", "model"])

    def test_second_red_run_replaces_the_evidence(self):
        gate = self.make_gate(RED, (1, RED_OUTPUT + "second run\n"))
        gate.red()
        gate.red()
        self.write_prompt()
        gate.model()
        self.assertEqual(self.steps(gate), ["red", "red", "model"])


class TestOrder(GateCase):
    def test_prompt_alone_does_not_open_the_window(self):
        gate = self.make_gate(RED, GREEN)
        gate.red()
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.green()
        self.assertEqual(self.steps(gate), ["red"])
        self.assertFalse(gate.green_log.exists())

    def test_refused_green_does_not_run_the_tests(self):
        gate = self.make_gate(RED, GREEN)
        gate.red()
        with self.assertRaises(GateError):
            gate.green()
        self.assertEqual(self.runner.calls, 1)

    def test_green_without_any_red_is_refused(self):
        gate = self.make_gate(GREEN)
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.green()
        self.assertEqual(self.steps(gate), [])

    def test_red_after_window_needs_a_new_window(self):
        gate = self.make_gate(RED, RED, GREEN)
        gate.red()
        self.write_prompt()
        gate.model()
        gate.red()
        with self.assertRaises(GateError):
            gate.green()
        gate.model()
        gate.green()
        self.assertEqual(self.steps(gate), ["red", "model", "red", "model", "green"])

    def test_failed_green_keeps_the_window_open(self):
        gate = self.make_gate(RED, RED, GREEN)
        gate.red()
        self.write_prompt()
        gate.model()
        with self.assertRaises(GateError):
            gate.green()
        self.assertFalse(gate.green_log.exists())
        gate.green()
        self.assertEqual(self.steps(gate), ["red", "model", "green"])
        self.assertEqual([(type(e["rc"]), e["rc"]) for e in self.journal(gate) if e["step"] == "green"], [(int, 0)])

    def test_journal_times_come_from_the_injected_clock(self):
        gate = self.make_gate(RED, GREEN)
        gate.red()
        self.write_prompt()
        gate.model()
        gate.green()
        times = [e["at"] for e in self.journal(gate)]
        self.assertEqual([type(t) for t in times], [float] * 3, times)
        self.assertEqual(times, [1000.0, 1001.0, 1002.0])

    def test_window_records_the_prompt_digest(self):
        gate = self.make_gate(RED)
        gate.red()
        prompt = self.write_prompt("Refunds are negative cents. Propose a minimal patch.\n")
        event = gate.model()
        self.assertIs(type(event), dict)
        self.assertIs(type(event.get("prompt_sha256")), str)
        self.assertEqual(event["prompt_sha256"], hashlib.sha256(prompt.read_bytes()).hexdigest())


class TestCommandLine(GateCase):
    def test_refused_step_exits_non_zero(self):
        # main() keeps its artifacts under the current directory: run it in a scratch one.
        previous = os.getcwd()
        os.chdir(self.art.parent)
        self.addCleanup(os.chdir, previous)
        with contextlib.redirect_stderr(io.StringIO()) as err:
            code = main(["green"])
        self.assertIs(type(code), int, f"main() returned {code!r}, not an exit code")
        self.assertNotEqual(code, 0, "a script reads the exit code: a refused step must not exit 0")
        self.assertIn("gate:", err.getvalue())

    def test_run_tests_keeps_the_report_on_stderr(self):
        done = subprocess.CompletedProcess(args=[], returncode=1, stdout="", stderr="F\nFAILED (failures=1)\n")
        with patch("subprocess.run", return_value=done):
            code, output = run_tests()
        self.assertEqual((type(code), type(output)), (int, str))
        self.assertEqual(code, 1)
        self.assertIn("FAILED (failures=1)", output, "unittest prints its report on stderr")


if __name__ == "__main__":
    unittest.main()
