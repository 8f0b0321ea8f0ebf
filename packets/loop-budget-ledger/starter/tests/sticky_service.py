"""The toy service the driver talks to, started in-process on 127.0.0.1 port 0.

    GET  /health  -> 200 {"ok": true}
    GET  /items   -> 200 {"items": [...]}
    POST /items   -> 201 {"id": "<n>"} for a JSON body, 400 otherwise
    GET  /secret  -> 404, always. There is no secret.
    anything else -> 404

It lives under tests/ so nobody can "fix the server" to dodge the stop rule.
"""
import contextlib
import json
import socket
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Handler(BaseHTTPRequestHandler):
    def _send(self, code, payload):
        body = json.dumps(payload).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.hits[f"GET {self.path}"] += 1
        if self.path == "/health":
            return self._send(200, {"ok": True})
        if self.path == "/items":
            return self._send(200, {"items": list(self.server.items)})
        return self._send(404, {"error": "no such route"})

    def do_POST(self):
        self.server.hits[f"POST {self.path}"] += 1
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        if self.path != "/items":
            return self._send(404, {"error": "no such route"})
        try:
            item = json.loads(raw or b"null")
        except ValueError:
            return self._send(400, {"error": "bad json"})
        if not isinstance(item, dict):
            return self._send(400, {"error": "expected an object"})
        self.server.items.append(item)
        return self._send(201, {"id": str(len(self.server.items))})

    def log_message(self, *args):
        return


@contextlib.contextmanager
def serve():
    """Yield (base_url, hits): hits counts requests by "METHOD /path"."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.hits = Counter()
    server.items = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}", server.hits
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=1)


def closed_port_url():
    """A URL on 127.0.0.1 where nothing listens: bind port 0, read it, close it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"
