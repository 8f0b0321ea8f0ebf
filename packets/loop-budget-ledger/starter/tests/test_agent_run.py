import json
import unittest

from src.agent_run import run
from tests.budget_support import BudgetCase, ScriptedPlan, asks
from tests.sticky_service import serve


class TestRun(BudgetCase):
    def test_short_plan_finishes_without_giving_up(self):
        plan = ScriptedPlan(
            {"call": "GET /health"},
            {"call": "POST /items", "body": {"title": "milk"}},
            {"call": "GET /items"},
        )
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget()))
        self.assertEqual(result["status"], "done")
        self.assertEqual((result["model_calls"], result["tool_calls"]), (4, 3))
        self.assertEqual(hits["POST /items"], 1)
        self.assertFalse(self.give_up.exists())

    def test_documented_404_is_requested_once(self):
        plan = ScriptedPlan(*asks("GET /secret", 5), {"call": "GET /health"})
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget()))
        self.assertEqual(hits["GET /secret"], 1, "the server saw /secret more than once")
        self.assertEqual(len(self.named("GET /secret")), 1)
        self.assertEqual(hits["GET /health"], 1)
        self.assertEqual(result["status"], "done")

    def test_spent_budget_stops_cleanly_with_give_up_file(self):
        plan = ScriptedPlan(*asks("GET /secret", 40))
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget(max_model=4)))
        self.assertEqual(result["status"], "gave-up")
        self.assertEqual(result["reason"], "model calls")
        self.assertTrue(self.give_up.exists(), "give_up.json next to the ledger")
        note = json.loads(self.give_up.read_text(encoding="utf-8"))
        self.assertEqual(note["reason"], "model calls")
        self.assertEqual((note["model_calls"], note["tool_calls"]), (4, 1))


if __name__ == "__main__":
    unittest.main()
