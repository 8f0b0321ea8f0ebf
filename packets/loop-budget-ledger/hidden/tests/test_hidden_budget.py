"""Held-out checks: caps bite before the spend, streaks, dead endpoints, give-up notes."""
import json
import unittest

from src.agent_run import run
from src.loop_budget import BudgetBlown
from tests.budget_support import BudgetCase, ScriptedPlan, asks
from tests.sticky_service import closed_port_url, serve


class Counted:
    def __init__(self, outcome=(1, 2, None)):
        self.outcome = outcome
        self.calls = 0

    def __call__(self):
        self.calls += 1
        return self.outcome


class TestCapsBeforeSpend(BudgetCase):
    def test_over_cap_tool_call_never_runs(self):
        budget = self.budget(max_tool=2)
        fn = Counted()
        budget.call("tool", "GET /items", fn)
        budget.call("tool", "GET /items", fn)
        with self.assertRaisesRegex(BudgetBlown, "tool calls"):
            budget.call("tool", "GET /items", fn)
        self.assertEqual(fn.calls, 2, "the third request went out anyway")
        self.assertEqual(len(self.rows()), 2)

    def test_late_call_never_runs(self):
        budget = self.budget(wall_s=10)
        fn = Counted()
        self.clock.value = 10.5
        with self.assertRaisesRegex(BudgetBlown, "wall clock"):
            budget.call("model", "plan", fn)
        self.assertEqual(fn.calls, 0)
        self.assertEqual(self.rows(), [])

    def test_caps_are_counted_per_kind(self):
        budget = self.budget(max_model=1, max_tool=1)
        budget.call("model", "plan", Counted())
        budget.call("tool", "GET /health", Counted())
        with self.assertRaisesRegex(BudgetBlown, "tool calls"):
            budget.call("tool", "GET /health", Counted())

    def test_planner_is_asked_exactly_max_model_times(self):
        plan = ScriptedPlan(*asks("GET /health", 30))
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget(max_model=5)))
        self.assertEqual(plan.calls, 5)
        self.assertEqual(result["reason"], "model calls")


class TestStreaks(BudgetCase):
    def test_planner_turns_do_not_reset_a_tool_streak(self):
        budget = self.budget(max_identical=3)
        boom = lambda: (0, 0, "GET /health -> unreachable")  # noqa: E731
        for _ in range(2):
            budget.call("tool", "GET /health", boom)
            budget.call("model", "plan", Counted())
        with self.assertRaisesRegex(BudgetBlown, "repeated error"):
            budget.call("tool", "GET /health", boom)

    def test_a_success_resets_the_streak(self):
        budget = self.budget(max_identical=3)
        boom = lambda: (0, 0, "GET /health -> 503")  # noqa: E731
        for fn in (boom, boom, Counted(), boom, boom):
            budget.call("tool", "GET /health", fn)
        self.assertEqual(len(self.rows()), 5)

    def test_different_errors_are_not_identical(self):
        budget = self.budget(max_identical=2)
        budget.call("tool", "GET /a", lambda: (0, 0, "GET /a -> 404"))
        budget.call("tool", "GET /b", lambda: (0, 0, "GET /b -> 404"))
        self.assertEqual([r["duplicate_of"] for r in self.rows()], [None, None])


class TestDriver(BudgetCase):
    def test_dead_endpoint_stops_after_three_identical_failures(self):
        plan = ScriptedPlan(*asks("GET /health", 10))
        result = self.outcome(run(closed_port_url(), plan, self.budget(max_identical=3)))
        self.assertEqual(result["status"], "gave-up")
        self.assertTrue(result["reason"].startswith("repeated error"), result["reason"])
        tools = [r for r in self.rows() if r["kind"] == "tool"]
        self.assertEqual(len(tools), 3)
        self.assertEqual([r["duplicate_of"] for r in tools][1:], [1, 1])
        note = json.loads(self.give_up.read_text(encoding="utf-8"))
        self.assertEqual(note["reason"], result["reason"])
        self.assertEqual(note["tool_calls"], 3)

    def test_tool_cap_stops_the_driver(self):
        plan = ScriptedPlan(*asks("GET /items", 30))
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget(max_tool=5)))
        self.assertEqual((result["status"], result["reason"]), ("gave-up", "tool calls"))
        self.assertEqual(hits["GET /items"], 5)
        self.assertTrue(self.give_up.exists())

    def test_unknown_route_is_a_dead_end_too(self):
        plan = ScriptedPlan(*asks("GET /admin", 3), *asks("GET /secret", 3))
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget()))
        self.assertEqual((hits["GET /admin"], hits["GET /secret"]), (1, 1))
        self.assertEqual(result["tool_calls"], 2)
        self.assertEqual(result["status"], "done")

    def test_planner_hears_about_the_dead_end(self):
        plan = ScriptedPlan(*asks("GET /secret", 2))
        with serve() as (base, hits):
            run(base, plan, self.budget())
        last = plan.seen[-1]
        self.assertEqual([entry["call"] for entry in last], ["GET /secret", "GET /secret"])
        self.assertTrue(all(entry["status"] == 404 for entry in last))

    def test_ledger_matches_the_server(self):
        plan = ScriptedPlan(
            {"call": "GET /health"},
            {"call": "POST /items", "body": {"title": "bread"}},
            {"call": "GET /secret"},
            {"call": "GET /items"},
            {"call": "GET /secret"},
        )
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget()))
        tools = [r for r in self.rows() if r["kind"] == "tool"]
        self.assertEqual(len(tools), sum(hits.values()))
        post = [r for r in tools if r["name"] == "POST /items"][0]
        self.assertEqual(post["bytes_in"], len(json.dumps({"title": "bread"}).encode()))
        self.assertIsNone(post["error"])
        secret = [r for r in tools if r["name"] == "GET /secret"]
        self.assertEqual([r["error"] for r in secret], ["GET /secret -> 404"])
        self.assertEqual(result["model_calls"], 6)

    def test_finished_run_leaves_no_give_up_note(self):
        plan = ScriptedPlan({"call": "GET /health"})
        with serve() as (base, hits):
            result = self.outcome(run(base, plan, self.budget()))
        self.assertEqual(result, {"status": "done", "reason": None, "model_calls": 2, "tool_calls": 1})
        self.assertFalse(self.give_up.exists())


if __name__ == "__main__":
    unittest.main()
