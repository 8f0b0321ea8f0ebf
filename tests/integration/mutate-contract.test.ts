import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractBreak, readContracts, type ContractReading } from '../../src/mutate/contract.ts';
import { prepareRunEnvironment, type RunEnvironment } from '../../src/runs/environment.ts';

/**
 * The contract a mutant must keep, read by Python's own parser in the sandbox: what each test
 * file imports (from-imports, module aliases and their attributes, relative imports, star
 * imports), and the def lines of the sample and of each mutant. One sandbox run for all.
 */
const CLIENT = `class FetchError(Exception):
    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status

    def _detail(self):
        return self.status


def fetch_json(url, timeout=5.0):
    return {}


def _get_once(url, timeout):
    return {}
`;
const GATE = 'def main(argv=None):\n    return 0\n\n\nasync def poll(*, every):\n    return None\n';
const UTIL = 'def helper(x):\n    return x\n';

const sources = new Map([
  ['src/client.py', CLIENT],
  ['src/gate.py', GATE],
  ['src/util.py', UTIL],
]);
const tests = new Map([
  ['tests/test_client.py', 'from src import client\n\n\ndef test_it():\n    assert client.fetch_json("u") == {}\n    client.FetchError("m", status=1)\n'],
  ['tests/test_gate.py', 'import src.gate as g\nfrom src.gate import *\n\n\ndef test_it():\n    assert g.main([]) == 0\n'],
  ['tests/helpers/__init__.py', ''],
  ['tests/helpers/support.py', 'from ...src.util import helper\n'],
]);
const mutants = [
  { path: 'src/client.py', code: CLIENT.replace('def fetch_json(url, timeout=5.0):', 'def fetch_json(timeout, url=None):') },
  { path: 'src/client.py', code: CLIENT.replace('def __init__(self, message, status=None):', 'def __init__(self, message):') },
  { path: 'src/client.py', code: CLIENT.replace('def _get_once(url, timeout):', 'def _get_once(url, timeout, retries=3):').replace('timeout=5.0', 'timeout=9.0') },
  { path: 'src/client.py', code: CLIENT.replace('    def _detail(self):\n        return self.status\n', '') },
  { path: 'src/gate.py', code: GATE.replace('async def poll(*, every):', 'def poll(*, every):') },
  { path: 'src/client.py', code: 'def fetch_json(url, timeout=5.0:\n' },
];

let environment: RunEnvironment;
let reading: ContractReading;
beforeAll(async () => {
  const prepared = await prepareRunEnvironment({ env: process.env, tmpDir: tmpdir(), allowUnconfined: false });
  if (!prepared.ok) throw new Error(prepared.message);
  environment = prepared.environment;
  const r = await readContracts({ runner: { sandbox: environment.sandbox, mounts: environment.interpreter.mounts, timeoutMs: 30_000 }, scratchDir: tmpdir(), sources, tests, mutants });
  if ('error' in r) throw new Error(r.error);
  reading = r;
}, 60_000);
afterAll(() => environment?.dispose());

describe('readContracts', () => {
  it('reads what the tests import, through module aliases, star and relative imports', () => {
    expect(reading.imports).toEqual({
      'src/client.py': ['FetchError', 'fetch_json'],
      'src/gate.py': ['*', 'main'],
      'src/util.py': ['helper'],
    });
  });

  it('reads def lines: parameters, defaults, keyword-only, async, methods', () => {
    expect(reading.sample['src/client.py']).toEqual({
      defs: {
        FetchError: 'class FetchError',
        'FetchError.__init__': 'def __init__(self, message, status=...)',
        'FetchError._detail': 'def _detail(self)',
        fetch_json: 'def fetch_json(url, timeout=...)',
        _get_once: 'def _get_once(url, timeout)',
      },
    });
    expect(reading.sample['src/gate.py']).toEqual({ defs: { main: 'def main(argv=...)', poll: 'async def poll(*, every)' } });
  });

  it('calls a changed def line of what the tests use a contract change, and nothing else', () => {
    expect(contractBreak(reading, 0, 'src/client.py')).toBe('it changes the public contract the tests import: fetch_json changes from "def fetch_json(url, timeout=...)" to "def fetch_json(timeout, url=...)"');
    expect(contractBreak(reading, 1, 'src/client.py')).toBe('it changes the public contract the tests import: FetchError.__init__ changes from "def __init__(self, message, status=...)" to "def __init__(self, message)"');
    // A private helper's parameters, a default's value, a private method: behaviour, not contract.
    expect(contractBreak(reading, 2, 'src/client.py')).toBeNull();
    expect(contractBreak(reading, 3, 'src/client.py')).toBeNull();
    // A star import brings every public name: poll is part of the contract.
    expect(contractBreak(reading, 4, 'src/gate.py')).toBe('it changes the public contract the tests import: poll changes from "async def poll(*, every)" to "def poll(*, every)"');
  });

  it('leaves a mutant that does not parse to the run, and says why it does not', () => {
    expect(reading.mutants[5]).toEqual({ error: expect.stringMatching(/^SyntaxError: .* \(line 1\)$/) });
    expect(contractBreak(reading, 5, 'src/client.py')).toBeNull();
  });
});
