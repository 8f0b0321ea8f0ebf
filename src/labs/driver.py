"""Run a lab's tests for every combination of its suggestions' states, in one interpreter.

packet-kit runs this file inside the sandbox, from the workspace root, with the lab's spec
(written by src/labs/precompute.ts) as its only argument. The parent imports unittest and the
standard modules the lab's code imports, once, and forks workers. A worker runs a batch of
combinations one after another: it writes the composed files, discovers the tests as
`python3 -m unittest discover` would, runs them with a result that records every test's
outcome, sends the record up a pipe, and then puts back what a combination may have changed
(every module imported since the worker started, sys.path, the environment, the working
directory) before the next one. With a batch of 1 every combination gets a fresh fork. The
parent writes one line per combination to its standard output, the spec's marker and a JSON
record (the sandbox keeps none of the workspace, so the kit reads the records from there);
whatever else the parent's imports print goes to standard error. A combination that overruns
its time is recorded as timed out and its worker killed; one whose worker dies without a record
is recorded as crashed; a new worker takes the rest of the batch.

Spec: {"files": [{"path", "segments": [text | suggestion index]}], "variants": [[original,
offered, revised], ...], "start", "top", "pattern", "preimport": [module names], "marker",
"timeout", "batch"}.
"""

import gc
import importlib
import json
import linecache
import os
import select
import signal
import sys
import time
import traceback
import unittest

MESSAGE_LIMIT = 200


def short_message(err):
    """The first line of the exception: `AssertionError: 'a' != 'b'`, cut short (the diff after it is left out)."""
    lines = [line for line in "".join(traceback.format_exception_only(err[0], err[1])).strip().splitlines() if line.strip()]
    text = lines[0].strip() if lines else err[0].__name__
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


class Record(unittest.TestResult):
    """Every test's outcome by id, with a short message for the ones that did not pass."""

    def __init__(self):
        super().__init__()
        self.outcomes = {}

    def _set(self, test, outcome, message=None):
        entry = [outcome] if message is None else [outcome, message]
        # A failing subtest or a later error wins over an earlier pass.
        if self.outcomes.get(test.id(), ["pass"])[0] == "pass":
            self.outcomes[test.id()] = entry

    def addSuccess(self, test):
        self.outcomes.setdefault(test.id(), ["pass"])

    def addFailure(self, test, err):
        self._set(test, "fail", short_message(err))

    def addError(self, test, err):
        self._set(test, "error", short_message(err))

    def addSkip(self, test, reason):
        self._set(test, "skip", str(reason)[:MESSAGE_LIMIT])

    def addExpectedFailure(self, test, err):
        self._set(test, "xfail", short_message(err))

    def addUnexpectedSuccess(self, test):
        self._set(test, "xpass", "unexpected success")

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "fail" if failed else "error", short_message(err))


def run_tests(spec):
    loader = unittest.TestLoader()
    suite = loader.discover(spec["start"], pattern=spec["pattern"], top_level_dir=spec["top"])
    record = Record()
    suite.run(record)
    return {"tests": record.outcomes}


def compose(spec, states, written):
    """Write the files of one combination (only those whose text changed)."""
    variants = spec["variants"]
    for f in spec["files"]:
        text = "".join(seg if isinstance(seg, str) else variants[seg][states[seg]] for seg in f["segments"])
        if written.get(f["path"]) != text:
            with open(f["path"], "w", encoding="utf-8") as target:
                target.write(text)
            written[f["path"]] = text


def states_of(index, count):
    return [(index // 3 ** i) % 3 for i in range(count)]


def worker(spec, indexes, write_end):
    """Run some combinations in this process, each from the same clean state; one JSON line each."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    count = len(spec["variants"])
    modules = set(sys.modules)
    path = list(sys.path)
    environ = dict(os.environ)
    cwd = os.getcwd()
    written = {}
    for index in indexes:
        compose(spec, states_of(index, count), written)
        importlib.invalidate_caches()
        linecache.clearcache()
        try:
            payload = run_tests(spec)
        except BaseException:  # the run itself failed: a crash of this combination
            payload = {"crash": short_message(sys.exc_info())}
        payload["index"] = index
        data = (json.dumps(payload) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
        for name in [name for name in sys.modules if name not in modules]:
            del sys.modules[name]
        sys.path[:] = path
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(cwd)
    os._exit(0)


def start_worker(spec, indexes, results_fd):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.close(results_fd)
        os.setpgid(0, 0)
        worker(spec, indexes, write_end)
    os.close(write_end)
    return pid, read_end


def stop_worker(pid):
    for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            kill()
        except OSError:
            pass


def main():
    with open(sys.argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    # As `python3 -m unittest`: the working directory is the import root.
    sys.path[0] = os.getcwd()
    for name in spec["preimport"]:
        try:
            __import__(name)
        except Exception:  # a module the sandbox lacks: the worker imports it, or fails there
            pass
    total = 3 ** len(spec["variants"])
    batch = max(1, int(spec.get("batch", 1)))
    timeout = spec["timeout"]
    marker = spec["marker"]
    results_fd = os.dup(1)
    os.dup2(2, 1)
    gc.collect()
    gc.freeze()
    with os.fdopen(results_fd, "w", encoding="utf-8") as out:

        def record(rec, index, started):
            rec["index"] = index
            rec["ms"] = round((time.monotonic() - started) * 1000, 1)
            out.write(marker + " " + json.dumps(rec) + "\n")

        for first in range(0, total, batch):
            pending = list(range(first, min(first + batch, total)))
            while pending:
                pid, read_end = start_worker(spec, pending, results_fd)
                buffer = b""
                started = time.monotonic()
                ended = False
                while pending and not ended:
                    left = started + timeout - time.monotonic()
                    ready = select.select([read_end], [], [], max(0, left))[0] if left > 0 else []
                    if not ready:
                        stop_worker(pid)
                        record({"timeout": timeout}, pending.pop(0), started)
                        ended = True
                        break
                    chunk = os.read(read_end, 65536)
                    if not chunk:
                        record({"crash": "the test process died before it reported (exit without a result)"}, pending.pop(0), started)
                        ended = True
                        break
                    buffer += chunk
                    while b"\n" in buffer:
                        line, buffer = buffer.split(b"\n", 1)
                        try:
                            rec = json.loads(line.decode("utf-8"))
                        except ValueError:
                            rec = {"crash": "the test process wrote an unreadable record"}
                        index = pending.pop(0)
                        record(rec, index, started)
                        started = time.monotonic()
                os.close(read_end)
                if pending or ended:
                    stop_worker(pid)
                os.waitpid(pid, 0)
            out.flush()


if __name__ == "__main__":
    main()
