import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { glob } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRIMITIVES } from '../../../src/packets/schema/primitives.ts';
import { createInterpreterResolver } from '../../../src/sandbox/interpreters.ts';

/**
 * The static screen (src/judge/harness/screen.py) on a fixture table: each case is one file, and
 * what it must name, as `line primitive`. Every case, and every shipped sample and starter file,
 * goes through ONE Python process (the module's __main__, all requests in one JSON list).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const SCREEN = path.join(root, 'src/judge/harness/screen.py');

interface Finding {
  file: string;
  line: number;
  col: number;
  primitive: string;
  detail: string;
}
interface Result {
  findings: Finding[];
  normalized: Record<string, [number, string][]>;
}
interface Case {
  name: string;
  source: string | Buffer;
  allow?: string[];
  /** `line primitive`, in order (a line with two uses at two columns names it twice); `[]` for a clean file. */
  expect: string[];
}

const lines = (...l: string[]) => l.join('\n') + '\n';

const CASES: Case[] = [
  {
    name: 'test machinery, by import, alias and attribute',
    source: lines(
      'import unittest',
      'from unittest import mock',
      'import unittest.mock as m',
      'import pytest, _pytest.python',
      'import pluggy',
      'from packet_kit_harness import record',
      'import _packet_kit',
      'x = doctest_alias.unittest',
      'from doctest import testmod',
      'm.patch("x")',
    ),
    expect: ['1 test-machinery', '2 test-machinery', '3 test-machinery', '4 test-machinery', '5 test-machinery', '6 test-machinery', '7 test-machinery', '8 test-machinery', '9 test-machinery'],
  },
  {
    name: 'introspection: frames, tracebacks, code objects and their modules',
    source: lines(
      'import inspect',
      'import sys, traceback',
      'f = sys._getframe(1)',
      'up = f.f_back.f_locals',
      'for frame, _ in traceback.walk_stack(None): pass',
      'traceback.TracebackException(e, capture_locals=True)',
      'g = (x for x in y).gi_frame',
      'code = fn.co_code',
      'import pickle, marshal, dis',
      'from linecache import getline',
      'tb.tb_frame',
      'breakpoint()',
    ),
    expect: ['1 introspection', '3 introspection', '4 introspection', '4 introspection', '5 introspection', '6 introspection', '7 introspection', '8 introspection', '9 introspection', '10 introspection', '11 introspection', '12 introspection'],
  },
  {
    name: 'gc, its object lists and a module read through another',
    source: lines('import gc', 'objs = x.gc.get_objects()', 'from gc import get_referrers'),
    expect: ['1 gc', '2 gc', '2 gc', '3 gc'],
  },
  {
    name: 'trace and profile hooks',
    source: lines('import sys, threading', 'sys.settrace(f)', 'threading.setprofile(f)', 'sys.monitoring.use_tool_id(1, "x")', 'from sys import setprofile'),
    expect: ['2 trace', '3 trace', '4 trace', '5 trace'],
  },
  {
    name: 'ctypes and friends',
    source: lines('import ctypes', 'from _ctypes import Structure', 'import cffi', 'lib = numpy_like.ctypes'),
    expect: ['1 ctypes', '2 ctypes', '3 ctypes', '4 ctypes'],
  },
  {
    name: 'builtins, atexit, signal',
    source: lines('import builtins', 'p = __builtins__', 'k = __build_class__', 'import atexit', 'import signal', 'import __builtin__'),
    expect: ['1 builtins', '2 builtins', '3 builtins', '4 atexit', '5 signal', '6 builtins'],
  },
  {
    name: 'fd 0/1/2 moved, closed or written, streams reassigned',
    source: lines(
      'import os, sys, contextlib',
      'os.dup2(w, 1)',
      'os.close(1)',
      'open(2, "w")',
      'os.write(1, b"ok")',
      'os.write(fd, b"ok")',
      'os.closerange(0, 3)',
      'sys.stdout = buf',
      'sys.__stderr__ = buf',
      'setattr(sys, "stdout", buf)',
      'with contextlib.redirect_stdout(buf): pass',
      'from contextlib import redirect_stderr',
      'os.fdopen(0)',
      'saved = os.dup(2)',
      'os.write(5, b"fine")',
      'os.close(fd)',
      'sys.stdout.write("fine")',
    ),
    expect: ['2 fd-redirect', '3 fd-redirect', '4 fd-redirect', '5 fd-redirect', '6 fd-redirect', '7 fd-redirect', '8 fd-redirect', '9 fd-redirect', '10 fd-redirect', '11 fd-redirect', '12 fd-redirect', '13 fd-redirect', '14 fd-redirect'],
  },
  {
    name: 'sys.modules and the hooks, through aliases and other modules',
    source: lines(
      'import sys as s',
      's.modules["unittest"]',
      'import sys',
      't = sys',
      't.meta_path.insert(0, f)',
      'import os',
      'os.sys.modules',
      'from sys import modules',
      'from os import sys as q',
      'vars(os)',
      'sys.excepthook = f',
      'sys.addaudithook(f)',
      'keep = [sys]',
      'sys.path_importer_cache.clear()',
    ),
    expect: ['2 sys-modules', '5 sys-modules', '7 sys-modules', '7 sys-modules', '8 sys-modules', '9 sys-modules', '10 sys-modules', '11 sys-modules', '12 sys-modules', '13 sys-modules', '14 sys-modules'],
  },
  {
    name: 'dynamic imports',
    source: lines('import importlib', 'm = __import__("os")', 'l = __loader__', 's = __spec__', 'import runpy, pkgutil, zipimport', 'mod = lib.import_module("os")'),
    expect: ['1 dynamic-import', '2 dynamic-import', '3 dynamic-import', '4 dynamic-import', '5 dynamic-import', '6 dynamic-import'],
  },
  {
    name: 'attributes named at run time',
    source: lines(
      'getattr(x, name)',
      'setattr(x, n, 1)',
      'hasattr(x, n)',
      'delattr(x, n)',
      'getattr(x, "a" + "b")',
      'import operator',
      'operator.attrgetter(n)',
      'operator.methodcaller("__len__")',
      'template.format(x)',
      'template.format_map(d)',
      'g = getattr',
      'g(x, name)',
      'getattr(x, "ok")',
      'operator.attrgetter("a.b")',
      'functools.reduce(getattr, ["fork"], os)()',
      'fs = map(operator.attrgetter, names)',
      'g = globals()[key]',
      'l = locals().get(k)',
      'h = globals()["ok"]',
    ),
    expect: ['1 computed-attr', '2 computed-attr', '3 computed-attr', '4 computed-attr', '5 computed-attr', '7 computed-attr', '8 computed-attr', '9 computed-attr', '10 computed-attr', '12 computed-attr', '15 computed-attr', '16 computed-attr', '17 computed-attr', '18 computed-attr'],
  },
  {
    name: 'dunder chains, by attribute, getattr and string',
    source: lines(
      'subs = ().__class__.__base__.__subclasses__()',
      'g = fn.__globals__',
      'd = getattr(x, "__dict__")',
      'text = "{0.__class__}".format(x)',
      'name = "__m" "ro__"',
      'hook = cls.__init_subclass__',
      'e.__traceback__',
      'class A:',
      '    def __init__(self):',
      '        super().__init__()',
      '    def __eq__(self, other):',
      '        return self.v == other.v',
      '    def where(self):',
      '        return __name__, __doc__, __file__, self.__qualname__',
    ),
    expect: ['1 dunder', '1 dunder', '1 dunder', '2 dunder', '3 dunder', '4 dunder', '5 dunder', '6 dunder', '7 dunder'],
  },
  {
    name: 'eval, exec, compile and code objects',
    source: lines('eval("1")', 'exec(code)', 'c = compile(src, "f", "exec")', 'import builtins', 'builtins.eval("2")', 'import types', 'f = types.FunctionType(c, {})', 'run = exec', 'eval ("spaced")', 're.compile("fine")'),
    expect: ['1 eval', '2 eval', '3 eval', '4 builtins', '5 eval', '7 eval', '8 eval', '9 eval'],
  },
  {
    name: 'an equality that returns a constant on every path',
    source: lines(
      'class Liar:',
      '    def __eq__(self, other):',
      '        return True',
      '    __ne__ = lambda self, other: False',
      'class Sly:',
      '    def __eq__(self, other):',
      '        if other is None:',
      '            return NotImplemented',
      '        return 1',
      'class Honest:',
      '    def __eq__(self, other):',
      '        if not isinstance(other, Honest):',
      '            return NotImplemented',
      '        return self.v == other.v',
      '    def __hash__(self):',
      '        return 1',
      'def always(self, other):',
      '    return True',
      'class Borrowed:',
      '    __eq__ = always',
    ),
    expect: ['2 constant-eq', '4 constant-eq', '6 constant-eq', '20 constant-eq'],
  },
  {
    name: 'fork, also through a literal split in two',
    source: lines('import os', 'os.fork()', 'from os import forkpty', 'os.register_at_fork(after_in_child=f)', 'getattr(os, "fo" "rk")()', 'pid = os.getpid()'),
    expect: ['2 fork', '3 fork', '4 fork', '5 fork'],
  },
  {
    name: 'star imports reach sys.modules and os.fork by a bare name',
    source: lines('from sys import *', 'modules["unittest"]', 'from os import *', 'fork()'),
    expect: ['2 sys-modules', '4 fork'],
  },
  {
    name: 'sys kept where its uses cannot be followed: a class attribute, a default, a call',
    source: lines('import sys', 'class C:', '    s = sys', 'def f(s=sys):', '    return s.modules', 'keep(sys)'),
    expect: ['3 sys-modules', '4 sys-modules', '5 sys-modules', '6 sys-modules'],
  },
  {
    name: 'attrgetter, class patterns, format fields and device paths',
    source: lines(
      'import operator, os, types',
      'operator.attrgetter("fork")(os)()',
      'match x:',
      '    case types.ModuleType(modules=m): pass',
      '    case object(__class__=c): pass',
      '"{0.f_back}".format(frame)',
      'open("/dev/stdout", "w")',
      'open("/proc/self/fd/1", "w")',
    ),
    expect: ['2 computed-attr', '4 sys-modules', '5 dunder', '6 introspection', '7 fd-redirect', '8 fd-redirect'],
  },
  {
    name: 'a chain of 90 aliases is followed to sys.modules; one of 150 is deeper than any real code, and named',
    source: lines(
      ...Array.from({ length: 90 }, (_, i) => `a${i + 1} = a${i}`),
      'a0 = sys',
      'a90.modules',
      ...Array.from({ length: 150 }, (_, i) => `c${i + 1} = c${i}`),
      'c150.modules',
    ),
    expect: ['92 sys-modules', '143 computed-attr'],
  },
  {
    name: 'a UTF-7 cookie hiding eval( as +AGUAdgBhAGwAKA-',
    source: lines('# -*- coding: utf-7 -*-', 'x = +AGUAdgBhAGwAKA-"1")'),
    expect: ['1 coding-cookie', '2 eval'],
  },
  {
    name: 'a latin-1 cookie on line 2',
    source: Buffer.concat([Buffer.from('#!/usr/bin/env python3\n# vim: set fileencoding=latin-1 :\nname = "'), Buffer.from([0xe9]), Buffer.from('"\n')]),
    expect: ['2 coding-cookie'],
  },
  {
    name: 'a utf-8 cookie and a BOM are fine',
    source: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# coding: utf-8\nname = "é"\n')]),
    expect: [],
  },
  {
    name: 'allowed primitives are let through, the others still named',
    source: lines('step = getattr(gate, name)', 'import gc'),
    allow: ['computed-attr'],
    expect: ['2 gc'],
  },
  {
    name: 'a file that does not parse has no AST findings',
    source: lines('import unittest', 'def broken(:'),
    expect: [],
  },
  {
    name: 'ordinary code raises no alarm',
    source: lines(
      'import sys, logging, dataclasses, collections, typing, json, time, re, functools, traceback',
      'import urllib.request',
      'from typing import Optional',
      'print("x", file=sys.stderr)',
      'args = sys.argv[1:]',
      'logging.getLogger(__name__).info("started %s", args)',
      '@dataclasses.dataclass',
      'class Point:',
      '    """Uses no __dict__ tricks."""',
      '    x: Optional[int] = None',
      '    def __eq__(self, other):',
      '        return isinstance(other, Point) and self.x == other.x',
      'Pair = collections.namedtuple("Pair", "a b")',
      'body = json.dumps({"t": time.monotonic()})',
      'pattern = re.compile(r"\\d+")',
      'def deco(fn):',
      '    @functools.wraps(fn)',
      '    def inner(*a, **k):',
      '        try:',
      '            return fn(*a, **k)',
      '        except Exception:',
      '            logging.error(traceback.format_exc())',
      '            raise',
      '    return inner',
      'class Child(Point):',
      '    def __init__(self, x):',
      '        super().__init__(x)',
      'line = "{} {}".format(1, 2)',
      'other = f"{line!r} {args}"',
      'req = urllib.request.Request("http://127.0.0.1/")',
      'sys.exit(1)',
    ),
    expect: [],
  },
  {
    name: 'self.__dict__ is listed, so it is named',
    source: lines('class A:', '    def dump(self):', '        return self.__dict__'),
    expect: ['3 dunder'],
  },
  {
    name: 'stdlib helpers that read attributes or modules by name, frame names, and sys.audit',
    source: lines(
      'import string, sys',
      'from xmlrpc.server import resolve_dotted_attribute',
      'import pydoc',
      'f = string.Formatter().get_field',
      'name = "tb_frame"',
      'sys.audit("open", "x")',
      'cell = (lambda: 1).cell_contents',
    ),
    expect: ['2 computed-attr', '3 dynamic-import', '4 computed-attr', '4 computed-attr', '5 introspection', '6 sys-modules', '7 introspection'],
  },
];

function request(files: [string, Buffer][], allow: string[] = []) {
  return { files: files.map(([p, data]) => [p, data.toString('base64')]), allow };
}

const sampleFiles: [string, Buffer][] = [];
let results: Result[];

beforeAll(async () => {
  for await (const rel of glob('packets/*/{sample,starter}/**/*.py', { cwd: root })) {
    if (rel.split(path.sep).includes('tests')) continue;
    sampleFiles.push([rel.split(path.sep).join('/'), readFileSync(path.join(root, rel))]);
  }
  sampleFiles.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
  const python = await resolver.python();
  await resolver.dispose();
  if ('error' in python) throw new Error(python.error);
  const batch = [
    ...CASES.map((c, i) => request([[`case${i}.py`, Buffer.isBuffer(c.source) ? c.source : Buffer.from(c.source)]], c.allow)),
    request(sampleFiles),
  ];
  const out = execFileSync(python.executable, ['-I', SCREEN], { input: JSON.stringify(batch), maxBuffer: 64 * 1024 * 1024 });
  results = JSON.parse(out.toString('utf8')) as Result[];
}, 60_000);

describe('the static screen', () => {
  it.each(CASES.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const got = results[i]!.findings.map((f) => `${f.line} ${f.primitive}`);
    expect(got).toEqual(CASES[i]!.expect);
  });

  it('covers every primitive id the kit documents, and reports no other', () => {
    const named = new Set(CASES.flatMap((c) => c.expect.map((e) => e.split(' ')[1]!)));
    expect([...named].sort()).toEqual([...PRIMITIVES].sort());
    const reported = new Set(results.flatMap((r) => r.findings.map((f) => f.primitive)));
    for (const p of reported) expect(PRIMITIVES).toContain(p);
  });

  it('says what it found in a short sentence, at a 1-based line and column', () => {
    const first = results[0]!.findings[0]!;
    expect(first).toEqual({
      file: 'case0.py',
      line: 1,
      col: 1,
      primitive: 'test-machinery',
      detail: 'imports unittest: candidate code has no business with the test runner',
    });
    const fork = results[CASES.findIndex((c) => c.name.startsWith('fork'))]!.findings;
    expect(fork.map((f) => [f.line, f.col, f.detail.split(':')[0]])).toEqual([
      [2, 4, 'reads os.fork'],
      [3, 1, 'imports os.forkpty'],
      [4, 4, 'reads os.register_at_fork'],
      [5, 1, 'getattr names os.fork'],
    ]);
    for (const r of results) for (const f of r.findings) expect(f.detail.length).toBeLessThanOrEqual(200);
  });

  it('normalises each logical line for the forbid patterns: no comments or blanks, literals joined, getattr as an attribute', () => {
    const norm = (i: number) => Object.fromEntries(results[i]!.normalized[`case${i}.py`]!);
    const at = (prefix: string) => CASES.findIndex((c) => c.name.startsWith(prefix));
    expect(norm(at('fork'))[5]).toBe('os.fork()');
    expect(norm(at('eval'))[9]).toBe('eval("spaced")');
    expect(norm(at('a UTF-7'))[2]).toBe('x=eval("1")');
    expect(norm(at('dunder'))[5]).toBe('name="__mro__"');
    expect(norm(at('fd 0/1/2'))[10]).toBe('sys.stdout=buf');
    // A line that reads the same normalised is left out; a logical line is keyed by its first line.
    expect(norm(at('fork'))[2]).toBeUndefined();
    const r = results[at('ordinary')]!.normalized['case' + at('ordinary') + '.py']!;
    expect(r.find(([line]) => line === 9)).toBeUndefined();
    expect(r.find(([line]) => line === 1)?.[1]).toBe('import sys,logging,dataclasses,collections,typing,json,time,re,functools,traceback');
  });

  it('finds every shipped sample and starter file clean but the one that dispatches by name', () => {
    const sample = results[CASES.length]!;
    expect(Object.keys(sample.normalized)).toEqual(sampleFiles.map(([p]) => p));
    expect(sampleFiles.length).toBeGreaterThan(30);
    // red-log-gate's `getattr(gate, step)()` dispatches a validated step by name: a packet that
    // keeps it needs `allowPrimitives: [{ primitive: computed-attr, reason: ... }]`.
    expect(sample.findings.map((f) => `${f.file}:${f.line} ${f.primitive}`)).toEqual([
      'packets/red-log-gate/sample/src/gate.py:155 computed-attr',
      'packets/red-log-gate/starter/src/gate.py:117 computed-attr',
    ]);
  });
});
