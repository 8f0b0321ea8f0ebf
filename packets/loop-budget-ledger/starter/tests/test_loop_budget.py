import unittest

from src.loop_budget import BudgetBlown
from tests.budget_support import BudgetCase

OK = lambda: (10, 40, None)  # noqa: E731


class TestCaps(BudgetCase):
    def test_model_cap_is_exact(self):
        budget = self.budget(max_model=2)
        turns = []

        def plan_turn():
            turns.append(len(turns) + 1)
            return 10, 40, None

        budget.call("model", "plan", plan_turn)
        budget.call("model", "plan", plan_turn)
        with self.assertRaisesRegex(BudgetBlown, "model calls"):
            budget.call("model", "plan", plan_turn)
        self.assertEqual(turns, [1, 2], "a call over the cap must never run")
        self.assertEqual(len(self.rows()), 2)

    def test_three_identical_errors_in_a_row_stop(self):
        budget = self.budget(max_identical=3)
        boom = lambda: (24, 32, "GET /secret -> 404")  # noqa: E731
        budget.call("tool", "GET /secret", boom)
        budget.call("tool", "GET /secret", boom)
        with self.assertRaisesRegex(BudgetBlown, "repeated error"):
            budget.call("tool", "GET /secret", boom)
        self.assertEqual(len(self.rows()), 3, "the third failure is still written down")

    def test_wall_clock_stops_the_next_call(self):
        budget = self.budget(wall_s=45)
        budget.call("tool", "GET /health", OK)
        self.clock.value = 46.0
        with self.assertRaisesRegex(BudgetBlown, "wall clock"):
            budget.call("tool", "GET /health", OK)
        self.assertEqual(len(self.rows()), 1)


class TestLedger(BudgetCase):
    def test_one_line_per_call_with_every_field(self):
        budget = self.budget()
        budget.call("model", "plan", OK)
        budget.call("tool", "GET /items", lambda: (0, 15, None))
        rows = self.rows()
        self.assertEqual([r["kind"] for r in rows], ["model", "tool"])
        self.assertEqual(
            set(rows[1]),
            {"ts", "kind", "name", "bytes_in", "bytes_out", "error", "duplicate_of"},
        )
        self.assertEqual(rows[1]["bytes_out"], 15)

    def test_duplicate_of_points_at_the_first_identical_failure(self):
        budget = self.budget()
        budget.call("tool", "GET /secret", lambda: (0, 30, "GET /secret -> 404"))
        budget.call("model", "plan", OK)
        budget.call("tool", "GET /secret", lambda: (0, 30, "GET /secret -> 404"))
        self.assertEqual([r["duplicate_of"] for r in self.rows()], [None, None, 0])


if __name__ == "__main__":
    unittest.main()
