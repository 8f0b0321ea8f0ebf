"""Visible tests for src/agent.py. Do not edit: they are replaced at grading."""
import unittest

from tests.fakes import AgentCase, FakeChat, load_issue, reply, throttled

PATCH = "PATCH: --- a/dates.py\n+++ b/dates.py\n@@ -1 +1 @@\n-return naive\n+return aware\n"


class TestResolve(AgentCase):
    def chat(self):
        issue = load_issue()
        return issue, FakeChat([reply("Reading parse_date first.", 300, 40), reply(PATCH, 420, 90)],
                               expect=[str(issue["id"]), issue["title"]])

    def test_resolves_the_fixture(self):
        issue, chat = self.chat()
        self.assertEqual(self.run_agent(issue, chat), 0)
        answer = self.read_json("answer.json")
        self.assertIs(type(answer["issue"]), int)
        self.assertEqual(answer["issue"], 142)
        self.assertTrue(answer["patch"].startswith("--- a/dates.py"))
        self.assertFalse((self.workdir / "give_up.json").exists())

    def test_every_call_leaves_a_receipt_line(self):
        issue, chat = self.chat()
        self.run_agent(issue, chat)
        rows = self.receipt()
        self.assertEqual(len(rows), chat.calls, "one usage.jsonl line per model call")
        self.assertEqual([row.get("call") for row in rows], [1, 2])
        self.assertEqual([row.get("status") for row in rows], ["ok", "ok"])
        self.assertEqual([(row.get("prompt_tokens"), row.get("completion_tokens")) for row in rows],
                         [(300, 40), (420, 90)])

    def test_claimed_spend_matches_the_recomputed_ledger(self):
        issue, chat = self.chat()
        self.run_agent(issue, chat)
        claimed = self.read_json("answer.json").get("tokens")
        self.assertEqual(self.recomputed()["tokens"], chat.spent, "usage.jsonl must add up to what was billed")
        self.assertTokens(claimed, chat.spent, "answer.json must claim what usage.jsonl says")


class TestStops(AgentCase):
    def test_token_cap_is_checked_before_the_call(self):
        chat = FakeChat([reply("Still reading.", 900, 100)])
        self.assertEqual(self.run_agent(load_issue(), chat, tokens=2000), 0, "a clean stop exits 0")
        give_up = self.read_json("give_up.json")
        self.assertEqual(give_up.get("reason"), "token_cap")
        self.assertEqual(chat.calls, 2, "a third call could only overspend")
        self.assertEqual(len(self.receipt()), 2, "a stopped run still leaves its receipt")
        self.assertTokens(give_up.get("tokens"), self.recomputed()["tokens"])

    def test_call_cap_stops_cleanly(self):
        chat = FakeChat([reply("Still reading.", 50, 10)])
        self.assertEqual(self.run_agent(load_issue(), chat, calls=4), 0)
        self.assertEqual(self.read_json("give_up.json").get("reason"), "call_cap")
        self.assertEqual(chat.calls, 4)
        self.assertEqual(len(self.receipt()), 4)

    def test_a_throttled_endpoint_is_not_a_retry_storm(self):
        chat = FakeChat([throttled(1.0)])
        self.assertEqual(self.run_agent(load_issue(), chat, identical_errors=3), 0)
        self.assertEqual(self.read_json("give_up.json").get("reason"), "identical_errors")
        self.assertEqual(chat.calls, 3)
        self.assertEqual([row.get("status") for row in self.receipt()], ["throttled"] * 3)
        self.assertSlept([1.0, 1.0], "wait between attempts, not after giving up")


if __name__ == "__main__":
    unittest.main()
