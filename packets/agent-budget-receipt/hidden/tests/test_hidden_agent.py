"""Held-out tests for src/agent.py (never shipped to candidates)."""
import json
import socket
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from src import transport
from tests.fakes import AgentCase, FakeChat, broken, reply, throttled

ISSUE_377 = {
    "id": 377,
    "title": "CSV export drops the header row for empty tables",
    "body": "export_csv(table) writes nothing when the table has no rows. It should still write the header line.",
}
PATCH = "PATCH: --- a/export.py\n+++ b/export.py\n@@ -3 +3 @@\n-if not rows: return\n+write_header()\n"


class TestHeldOutIssue(AgentCase):
    def test_an_issue_it_has_never_seen(self):
        chat = FakeChat([reply("Looking at export_csv.", 250, 30), reply(PATCH, 380, 70)],
                        expect=["377", ISSUE_377["title"], ISSUE_377["body"]])
        self.assertEqual(self.run_agent(ISSUE_377, chat), 0)
        answer = self.read_json("answer.json")
        self.assertIs(type(answer["issue"]), int)
        self.assertEqual(answer["issue"], 377)
        self.assertTrue(answer["patch"].startswith("--- a/export.py"))
        self.assertTokens(answer["tokens"], self.recomputed()["tokens"])
        self.assertEqual(answer["tokens"], chat.spent)


class TestHiddenStops(AgentCase):
    def test_throttled_attempts_count_toward_the_call_cap(self):
        chat = FakeChat([throttled(2.0)])
        self.assertEqual(self.run_agent(ISSUE_377, chat, calls=3, identical_errors=10), 0)
        self.assertEqual(self.read_json("give_up.json").get("reason"), "call_cap")
        self.assertEqual(chat.calls, 3)
        self.assertEqual(len(self.receipt()), 3)

    def test_retry_after_is_honoured(self):
        chat = FakeChat([throttled(7.0), reply(PATCH, 200, 50)])
        self.assertEqual(self.run_agent(ISSUE_377, chat), 0)
        self.assertSlept([7.0])
        rows = self.receipt()
        self.assertEqual([(row.get("call"), row.get("status")) for row in rows], [(1, "throttled"), (2, "ok")])
        self.assertTokens(self.read_json("answer.json")["tokens"], 250)

    def test_a_wait_past_the_wall_clock_is_a_stop(self):
        chat = FakeChat([throttled(120.0)])
        self.assertEqual(self.run_agent(ISSUE_377, chat, wall_seconds=60), 0)
        self.assertEqual(self.read_json("give_up.json").get("reason"), "wall_clock")
        self.assertSlept([], "do not sleep through a wait you cannot afford")
        self.assertEqual(len(self.receipt()), 1)

    def test_a_success_resets_the_error_streak(self):
        chat = FakeChat([broken(), broken(), reply("Reading.", 80, 10), broken(), broken(), reply(PATCH, 90, 40)])
        self.assertEqual(self.run_agent(ISSUE_377, chat, identical_errors=3), 0)
        self.assertEqual([row.get("status") for row in self.receipt()],
                         ["error", "error", "ok", "error", "error", "ok"])
        self.assertTrue((self.workdir / "answer.json").exists())

    def test_different_errors_in_a_row_are_not_identical(self):
        chat = FakeChat([broken("HTTP 502 from the endpoint"), broken("HTTP 500 from the endpoint"),
                         broken("HTTP 502 from the endpoint"), reply(PATCH, 90, 40)])
        self.assertEqual(self.run_agent(ISSUE_377, chat, identical_errors=2), 0)
        self.assertFalse((self.workdir / "give_up.json").exists(), "three errors, no two alike in a row, are not a streak")
        self.assertTrue((self.workdir / "answer.json").exists())
        self.assertEqual([row.get("status") for row in self.receipt()], ["error", "error", "error", "ok"])
        self.assertSlept([1.0, 1.0, 1.0])

    def test_repeated_endpoint_errors_give_up(self):
        chat = FakeChat([broken("endpoint unreachable: connection refused")])
        self.assertEqual(self.run_agent(ISSUE_377, chat, identical_errors=4), 0)
        self.assertEqual(self.read_json("give_up.json").get("reason"), "identical_errors")
        self.assertEqual(chat.calls, 4)

    def test_a_token_stop_claims_what_the_receipt_says(self):
        chat = FakeChat([reply("Still reading.", 900, 100)])
        self.assertEqual(self.run_agent(ISSUE_377, chat, tokens=2500), 0)
        give_up = self.read_json("give_up.json")
        self.assertEqual((give_up.get("reason"), chat.calls), ("token_cap", 3))
        self.assertTokens(give_up.get("tokens"), self.recomputed()["tokens"])
        self.assertEqual(give_up.get("tokens"), 3000)


class _Endpoint:
    """A one-route HTTP server on 127.0.0.1:0 answering with a fixed status, headers and body."""

    def __init__(self, case, status, body, headers=()):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                data = json.dumps(body).encode("utf-8")
                self.send_response(status)
                for key, value in headers:
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.005}, daemon=True).start()
        case.addCleanup(server.server_close)
        case.addCleanup(server.shutdown)
        self.url = f"http://127.0.0.1:{server.server_address[1]}/v1/chat/completions"


class TestHiddenTransport(unittest.TestCase):
    MESSAGES = [{"role": "user", "content": "hi"}]

    def test_ok_reply_carries_content_and_usage(self):
        body = {"choices": [{"message": {"content": "PATCH: x"}}], "usage": {"prompt_tokens": 3, "completion_tokens": 2}}
        out = transport.http_chat(_Endpoint(self, 200, body).url, "scripted")(self.MESSAGES)
        self.assertIs(type(out), dict)
        self.assertIs(type(out["content"]), str)
        self.assertEqual(out["content"], "PATCH: x")
        self.assertIs(type(out["usage"]["prompt_tokens"]), int)
        self.assertEqual(out["usage"]["prompt_tokens"], 3)

    def test_429_is_throttled_with_retry_after(self):
        endpoint = _Endpoint(self, 429, {"error": "slow down"}, headers=[("Retry-After", "3")])
        with self.assertRaises(transport.Throttled) as caught:
            transport.http_chat(endpoint.url, "scripted")(self.MESSAGES)
        self.assertIs(type(caught.exception.retry_after), float)
        self.assertEqual(caught.exception.retry_after, 3.0)

    def test_closed_port_is_a_model_error(self):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sock.close()
        with self.assertRaises(transport.ModelError) as caught:
            transport.http_chat(f"http://127.0.0.1:{port}/v1/chat/completions", "scripted", timeout=2)(self.MESSAGES)
        self.assertNotIsInstance(caught.exception, transport.Throttled)


if __name__ == "__main__":
    unittest.main()
