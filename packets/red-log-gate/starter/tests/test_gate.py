import unittest

from src.gate import GateError
from tests.gate_support import GREEN, GREEN_OUTPUT, RED, RED_OUTPUT, GateCase


class TestRed(GateCase):
    def test_failing_run_is_captured(self):
        gate = self.make_gate(RED)
        path = self.artifact(gate.red())
        self.assertEqual(path.read_text(encoding="utf-8"), RED_OUTPUT)
        self.assertEqual(self.steps(gate), ["red"])

    def test_passing_run_is_refused(self):
        gate = self.make_gate(GREEN)
        with self.assertRaises(GateError):
            gate.red()
        self.assertEqual(self.steps(gate), [], "a green run must not be journaled as red")
        self.assertFalse(gate.red_log.exists(), "a green run must not leave a red.log")


class TestModelWindow(GateCase):
    def test_window_opens_after_captured_red_and_prompt(self):
        gate = self.make_gate(RED)
        gate.red()
        self.write_prompt()
        gate.model()
        self.assertEqual(self.steps(gate), ["red", "model"])

    def test_window_waits_for_a_prompt(self):
        gate = self.make_gate(RED)
        gate.red()
        with self.assertRaises(GateError):
            gate.model()
        self.assertEqual(self.steps(gate), ["red"])

    def test_hand_typed_red_log_is_refused(self):
        gate = self.make_gate()
        self.write("red.log", RED_OUTPUT)
        self.write_prompt()
        with self.assertRaises(GateError):
            gate.model()
        self.assertEqual(self.steps(gate), [])


class TestGreen(GateCase):
    def test_full_order_reaches_green(self):
        gate = self.make_gate(RED, GREEN)
        gate.red()
        self.write_prompt()
        gate.model()
        path = self.artifact(gate.green())
        self.assertEqual(path.read_text(encoding="utf-8"), GREEN_OUTPUT)
        self.assertEqual(self.steps(gate), ["red", "model", "green"])

    def test_green_before_model_is_refused(self):
        gate = self.make_gate(RED, GREEN)
        gate.red()
        with self.assertRaises(GateError):
            gate.green()
        self.assertEqual(self.steps(gate), ["red"])
        self.assertFalse(gate.green_log.exists())

    def test_green_refuses_a_red_run(self):
        gate = self.make_gate(RED, RED)
        gate.red()
        self.write_prompt()
        gate.model()
        with self.assertRaises(GateError):
            gate.green()
        self.assertEqual(self.steps(gate), ["red", "model"])
        self.assertFalse(gate.green_log.exists())


if __name__ == "__main__":
    unittest.main()
