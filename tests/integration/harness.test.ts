import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HARNESS_COMMAND, harnessInputs, harnessSources } from '../../src/judge/harness/bootstrap.ts';
import { harnessManifest, RECORD_LIMIT_BYTES, runHarness } from '../../src/judge/harness/run.ts';
import type { HarnessPlan } from '../../src/judge/runners/runner.ts';
import { harnessKey, readRecord, type HarnessRecord } from '../../src/judge/harness/record.ts';
import { harnessWorkspaces } from '../support/harness-workspace.ts';
import { useSandbox } from '../support/sandbox-harness.ts';

/**
 * The harness as unittest's stand-in, run for real in bubblewrap on small workspaces: what it
 * must run as unittest would (fixtures, subTests, skips, cleanups, mock.patch of the code under
 * test) and what it must refuse. The attacks on shipped packets are in harness-attacks.test.ts.
 */
const h = useSandbox('harness', 20_000);

const { workspace, harness } = harnessWorkspaces(h);

const outcomes = (r: HarnessRecord) => Object.fromEntries(r.tests.map((t) => [t.id.split('.').slice(-2).join('.'), t.outcome]));

describe('the harness runs unittest tests as unittest would', () => {
  it('records each test once, a test with failing subTests as one failure, and seals the whole record', async () => {
    const r = await harness(
      { 'src/calc.py': 'def double(x):\n    return x * 2\n' },
      {
        'tests/test_calc.py': [
          'import unittest',
          'from unittest import mock',
          'from src import calc',
          '',
          'def setUpModule():',
          '    calc.SEEN = ["module"]',
          '',
          'class TestCalc(unittest.TestCase):',
          '    @classmethod',
          '    def setUpClass(cls):',
          '        cls.base = 2',
          '    def setUp(self):',
          '        self.cleaned = []',
          '        self.addCleanup(self.cleaned.append, "x")',
          '    def test_double(self):',
          '        self.assertEqual(calc.double(self.base), 4)',
          '        self.assertEqual(calc.SEEN, ["module"])',
          '    def test_sub(self):',
          '        for i in range(4):',
          '            with self.subTest(i=i):',
          '                self.assertEqual(calc.double(i), 2)',
          '    def test_mock_patch(self):',
          '        with mock.patch.object(calc, "double", return_value=99):',
          '            self.assertEqual(calc.double(1), 99)',
          '        self.assertEqual(calc.double(1), 2)',
          '    @mock.patch("src.calc.double", return_value=7)',
          '    def test_mock_decorator(self, fake):',
          '        self.assertEqual(calc.double(1), 7)',
          '    @unittest.skip("not today")',
          '    def test_skipped(self):',
          '        self.fail("ran")',
          '    @unittest.expectedFailure',
          '    def test_known_bug(self):',
          '        self.assertEqual(1, 2)',
          '    def test_raises(self):',
          '        with self.assertRaises(ZeroDivisionError):',
          '            1 / 0',
          '    def test_error(self):',
          '        {}["missing"]',
          '',
          'class TestBrokenClass(unittest.TestCase):',
          '    @classmethod',
          '    def setUpClass(cls):',
          '        raise RuntimeError("no fixture")',
          '    def test_never(self):',
          '        pass',
          '',
        ].join('\n'),
      },
    );
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(outcomes(r)).toEqual({
      'TestCalc.test_double': 'passed',
      'TestCalc.test_sub': 'failed',
      'TestCalc.test_mock_patch': 'passed',
      'TestCalc.test_mock_decorator': 'passed',
      'TestCalc.test_skipped': 'skipped',
      'TestCalc.test_known_bug': 'expected-failure',
      'TestCalc.test_raises': 'passed',
      'TestCalc.test_error': 'error',
      'TestBrokenClass.test_never': 'error',
    });
    const sub = r.tests.find((t) => t.id.endsWith('test_sub'))!;
    expect(sub.subtestsFailed).toBe(3);
    expect(r.tests.find((t) => t.id.endsWith('test_never'))!.message).toContain('setUpClass: RuntimeError: no fixture');
    expect(r.integrity).toEqual([]);
    expect(r.audit).toEqual([]);
    expect(r.exitCode).toBe(1);
  });

  it('keeps a test module the candidate cannot read off the disk, and names a module that does not import', async () => {
    const r = await harness(
      { 'src/peek.py': 'import os\ndef files():\n    return sorted(os.listdir("tests"))\n' },
      {
        'tests/test_hidden_peek.py': 'import unittest\nfrom src.peek import files\nclass TestPeek(unittest.TestCase):\n    def test_not_on_disk(self):\n        self.assertEqual(files(), ["__init__.py"])\n',
        'tests/test_broken.py': 'import unittest\nfrom src.missing import nothing\n',
      },
    );
    expect(outcomes(r)).toEqual({ 'TestPeek.test_not_on_disk': 'passed' });
    expect(r.modules.find((m) => m.file === 'tests/test_broken.py')).toMatchObject({ ok: false, error: expect.stringContaining("ModuleNotFoundError: No module named 'src.missing'") });
  });
});

describe('the harness refuses what reaches for the tests', () => {
  const test = { 'tests/test_calc.py': 'import unittest\nfrom src.calc import double\nclass TestCalc(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n' };

  it('decides outcomes with its own copies when TestCase is patched, and names the patch', async () => {
    const r = await harness({ 'src/calc.py': 'import unittest\nunittest.TestCase.assertEqual = lambda *a, **k: None\nunittest.TestCase.failureException = unittest.case._ShouldStop\ndef double(x):\n    return 0\n' }, test);
    expect(outcomes(r)).toEqual({ 'TestCalc.test_double': 'failed' });
    expect(r.integrity[0]!.problems).toEqual(expect.arrayContaining(['unittest.case.TestCase.assertEqual was replaced', 'unittest.case.TestCase.failureException was replaced']));
  });

  it('refuses frames, gc, tracers and code objects to code under test, at its line', async () => {
    const r = await harness(
      {
        'src/calc.py': [
          'import sys, gc',
          'def attempt(fn):',
          '    try:',
          '        fn()',
          '    except RuntimeError:',
          '        pass',
          'def double(x):',
          '    attempt(lambda: sys._getframe(1))',
          '    attempt(lambda: gc.get_objects())',
          '    attempt(lambda: sys.settrace(None))',
          '    attempt(lambda: double.__code__)',
          '    attempt(lambda: open("/proc/self/mem", "rb"))',
          '    return x * 2',
          '',
        ].join('\n'),
      },
      test,
    );
    expect(outcomes(r)).toEqual({ 'TestCalc.test_double': 'passed' });
    expect(r.audit.map((a) => [a.event, a.file, a.line])).toEqual([
      ['sys._getframe', 'src/calc.py', 8],
      ['gc.get_objects', 'src/calc.py', 9],
      ['sys.settrace', 'src/calc.py', 10],
      ['reading .__code__', 'src/calc.py', 11],
      ['open', 'src/calc.py', 12],
    ]);
  });

  it('leaves the standard library its own frames (namedtuple, logging, traceback) in code under test', async () => {
    const r = await harness(
      {
        'src/calc.py': [
          'import collections, logging, traceback, dataclasses',
          'Pair = collections.namedtuple("Pair", "a b")',
          '@dataclasses.dataclass',
          'class Box:',
          '    v: int',
          'log = logging.getLogger(__name__)',
          'def double(x):',
          '    log.warning("doubling %s", x)',
          '    try:',
          '        raise ValueError("x")',
          '    except ValueError:',
          '        traceback.format_exc()',
          '        log.exception("caught")',
          '    return Box(Pair(x, x).a * 2).v',
          '',
        ].join('\n'),
      },
      test,
    );
    expect(outcomes(r)).toEqual({ 'TestCalc.test_double': 'passed' });
    expect(r.audit).toEqual([]);
    expect(r.integrity).toEqual([]);
  });

  it('leaves honest asyncio to code under test (run, tasks, gather, a cancelled task, its repr), not a task\'s frames', async () => {
    const r = await harness(
      {
        'src/calc.py': [
          'import asyncio',
          'async def _twice(x):',
          '    await asyncio.sleep(0)',
          '    return x * 2',
          'async def _main(x):',
          '    slow = asyncio.ensure_future(asyncio.sleep(10))',
          '    repr(slow)',
          '    try:',
          '        slow.get_stack()',
          '    except RuntimeError:',
          '        pass',
          '    slow.cancel()',
          '    parts = await asyncio.gather(_twice(x), _twice(0))',
          '    return sum(parts)',
          'def double(x):',
          '    return asyncio.run(_main(x))',
          '',
        ].join('\n'),
      },
      test,
    );
    expect(outcomes(r)).toEqual({ 'TestCalc.test_double': 'passed' });
    // A task's stack is frames: handed out to code under test, it is refused.
    expect(r.audit.map((a) => [a.event, a.line])).toEqual([['reading .cr_frame', 9]]);
  });

  it('leaves the standard library that ordinary code imports alone, at import and in use', async () => {
    const modules = 'asyncio concurrent.futures multiprocessing http.server http.client urllib.request urllib.parse json csv sqlite3 decimal fractions statistics datetime zoneinfo uuid hashlib hmac secrets base64 gzip zipfile tarfile tempfile shutil glob fnmatch argparse configparser email.message xml.etree.ElementTree html socket selectors ssl subprocess threading queue heapq bisect itertools functools operator contextlib dataclasses enum typing abc collections weakref copy pprint textwrap string difflib struct array io pathlib os time random math logging warnings re unicodedata locale codecs'.split(' ');
    const r = await harness(
      {
        'src/calc.py': [
          ...modules.map((m) => `import ${m}`),
          'from concurrent.futures import ThreadPoolExecutor',
          'def double(x):',
          '    with ThreadPoolExecutor(2) as pool:',
          '        got = list(pool.map(lambda v: v * 2, [x]))[0]',
          '    with tempfile.TemporaryDirectory() as d:',
          '        pathlib.Path(d, "a.json").write_text(json.dumps({"x": got}))',
          '        got = json.loads(pathlib.Path(d, "a.json").read_text())["x"]',
          '    warnings.warn("just saying")',
          '    return got',
          '',
        ].join('\n'),
      },
      test,
    );
    expect({ outcomes: outcomes(r), audit: r.audit, modules: r.modules.filter((m) => !m.ok) }).toEqual({ outcomes: { 'TestCalc.test_double': 'passed' }, audit: [], modules: [] });
  });

  it('fails a test method that is not the packet\'s code (a __build_class__ hook)', async () => {
    const r = await harness(
      {
        'src/calc.py': [
          'import builtins',
          '_real = builtins.__build_class__',
          'def _hook(func, name, *bases, **kw):',
          '    cls = _real(func, name, *bases, **kw)',
          '    for k, v in list(vars(cls).items()):',
          '        if k.startswith("test"):',
          '            setattr(cls, k, lambda self: None)',
          '    return cls',
          'builtins.__build_class__ = _hook',
          'def double(x):',
          '    return 0',
          '',
        ].join('\n'),
      },
      test,
    );
    expect(r.tests[0]).toMatchObject({ outcome: 'error', foreign: true });
    expect(r.integrity[0]!.problems).toContain('builtins.__build_class__ was replaced');
  });

  it('ends the record early when the code under test exits the process, so nothing counts', async () => {
    const r = await harness({ 'src/calc.py': 'import os\ndef double(x):\n    os._exit(0)\n' }, test);
    expect(r.complete).toBe(false);
    expect(r.problems).toEqual(['the record ends before the harness finished (the process died or was stopped)']);
    expect(r.exitCode).toBe(0);
  });
});

describe('the harness under pytest', () => {
  it('records each pytest test once through its own plugin, and the machinery checks still run', async () => {
    const dir = workspace({
      'src/__init__.py': '',
      'src/calc.py': 'def double(x):\n    return x * 2\n',
      'tests/test_calc.py': [
        'import pytest',
        'from src.calc import double',
        'def test_double():',
        '    assert double(2) == 4',
        '@pytest.mark.parametrize("x", [1, 2])',
        'def test_param(x):',
        '    assert double(x) == 2',
        'def test_fixture(tmp_path):',
        '    assert tmp_path.exists()',
        'class TestGroup:',
        '    def test_in_class(self):',
        '        assert double(0) == 1',
        '',
      ].join('\n'),
    });
    const plan: HarnessPlan = { style: 'pytest', command: 'python3 -m pytest -q tests', tests: [], trusted: ['tests/test_calc.py'], screen: [], allow: [] };
    const { run, record } = await runHarness({ sandbox: h.bwrap, mounts: h.python.mounts, timeoutMs: 20_000 }, dir, plan, ['tests']);
    expect(run.error).toBeUndefined();
    expect(record.problems).toEqual([]);
    // Failing tests make a failing exit, as pytest's own: the judge never reads a red run's exit 0 as forged.
    expect(run.exitCode).toBe(1);
    expect(Object.fromEntries(record.tests.map((t) => [t.id, t.outcome]))).toEqual({
      'tests/test_calc.py::test_double': 'passed',
      'tests/test_calc.py::test_param[1]': 'passed',
      'tests/test_calc.py::test_param[2]': 'failed',
      'tests/test_calc.py::test_fixture': 'passed',
      'tests/test_calc.py::TestGroup::test_in_class': 'failed',
    });
  });
});

describe('what the harness is handed', () => {
  it('is code compiled by the run\'s own interpreter, or the source when that cannot be had, and both run', async () => {
    const shim = join(h.python.shimDir, 'python3');
    const compiled = harnessInputs(shim);
    expect([compiled.harness[0], compiled.screen[0]].map((b) => String.fromCharCode(b!))).toEqual(['M', 'M']);
    expect(harnessInputs(shim)).toBe(compiled);
    const plain = harnessInputs(undefined);
    expect([plain.harness[0], plain.screen[0]].map((b) => String.fromCharCode(b!))).toEqual(['S', 'S']);
    expect(plain.harness.subarray(1)).toEqual(harnessSources().harness);

    const dir = workspace({ 'tests/__init__.py': '', 'src/__init__.py': '', 'src/calc.py': 'def double(x):\n    return x * 2\n' });
    const plan: HarnessPlan = { style: 'unittest', command: 'python3 -m unittest', tests: [{ file: 'tests/test_calc.py', source: 'import unittest\nfrom src.calc import double\nclass T(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n' }], trusted: ['tests/test_calc.py'], screen: ['src/calc.py'], allow: [] };
    const key = harnessKey();
    const result = await h.bwrap.run({ ...h.python.mounts, workdir: dir, command: HARNESS_COMMAND, timeoutMs: 20_000, channels: { inputs: [plain.harness, plain.screen, Buffer.from(JSON.stringify(harnessManifest(plan))), key], recordLimitBytes: RECORD_LIMIT_BYTES } });
    const record = readRecord(result.record ?? '', key);
    expect(record.problems).toEqual([]);
    expect(record.tests.map((t) => t.outcome)).toEqual(['passed']);
    expect(record.screen).not.toBeNull();
  });
});

describe('the harness where unittest has corners', () => {
  it('runs fixtures, skips and marks as unittest does, and never passes what it did not run', async () => {
    const r = await harness(
      { 'src/calc.py': 'def double(x):\n    return x * 2\n' },
      {
        'tests/test_corners.py': [
          'import unittest',
          'from src import calc',
          'LOG = []',
          'def setUpModule():',
          '    unittest.addModuleCleanup(LOG.append, "module cleanup")',
          'class TestFirstSkipped(unittest.TestCase):',
          '    @classmethod',
          '    def setUpClass(cls):',
          '        cls.ready = True',
          '    @unittest.skip("first")',
          '    def test_a_skipped(self):',
          '        pass',
          '    def test_b_needs_class(self):',
          '        self.assertTrue(self.ready)',
          'class TestSkipInSetUpClass(unittest.TestCase):',
          '    @classmethod',
          '    def setUpClass(cls):',
          '        raise unittest.SkipTest("no fixture here")',
          '    def test_x(self):',
          '        pass',
          'class TestMore(unittest.TestCase):',
          '    async def test_async(self):',
          '        self.fail("never awaited")',
          '    def test_skip_in_subtest(self):',
          '        with self.subTest(i=1):',
          '            raise unittest.SkipTest("gone")',
          '        self.assertEqual(calc.double(1), 2)',
          '    def setUp(self):',
          '        if self._testMethodName == "test_marked_but_setup_fails":',
          '            raise RuntimeError("setUp broke")',
          '    @unittest.expectedFailure',
          '    def test_marked_but_setup_fails(self):',
          '        self.fail("expected")',
          '',
        ].join('\n'),
      },
    );
    expect(r.problems).toEqual([]);
    expect(outcomes(r)).toEqual({
      'TestFirstSkipped.test_a_skipped': 'skipped',
      'TestFirstSkipped.test_b_needs_class': 'passed',
      'TestSkipInSetUpClass.test_x': 'skipped',
      'TestMore.test_async': 'error',
      'TestMore.test_skip_in_subtest': 'skipped',
      'TestMore.test_marked_but_setup_fails': 'error',
    });
    expect(r.tests.find((t) => t.id.endsWith('test_async'))!.message).toContain('async test');
  });

  it('refuses the process\'s own memory however it is spelled, and leaves plain /proc files to the tests', async () => {
    const r = await harness(
      {
        'src/calc.py': [
          'import os, pathlib',
          'def attempt(fn):',
          '    try:',
          '        fn()',
          '    except Exception:',
          '        pass',
          'def double(x):',
          '    attempt(lambda: open("/proc/self/./mem", "rb"))',
          '    attempt(lambda: pathlib.Path("/proc", "self", "mem").read_bytes())',
          '    attempt(lambda: os.listdir("/proc/self"))',
          '    attempt(lambda: os.symlink("/proc/self/status", "link"))',
          '    attempt(lambda: open("link", "rb"))',
          '    return x * 2',
          '',
        ].join('\n'),
      },
      { 'tests/test_calc.py': 'import unittest\nfrom src.calc import double\nclass TestCalc(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(double(2), 4)\n        with open("/proc/self/status") as f:\n            self.assertIn("Name", f.read())\n' },
    );
    expect(outcomes(r)).toEqual({ 'TestCalc.test_double': 'passed' });
    expect(r.audit.map((a) => [a.event, a.line])).toEqual([['open', 8], ['open', 9], ['os.listdir', 10], ['os.symlink', 11]]);
  });
});
