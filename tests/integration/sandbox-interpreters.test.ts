import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBubblewrapSandbox } from '../../src/sandbox/bubblewrap.ts';
import { createInterpreterResolver, type InterpreterContext, type ProbeOutput } from '../../src/sandbox/interpreters.ts';

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'packet-kit-interp-test-'));
  scratch.push(dir);
  return dir;
}

/** A context whose PATH lookup and interpreter run are scripted, counting probe runs. */
function scripted(probe: ProbeOutput, found: string | null = '/fake/shims/python3') {
  const calls: string[][] = [];
  const context: InterpreterContext = {
    searchPath: '/fake/shims:/usr/bin',
    env: { PYENV_VERSION: '3.11.7', UNSET: undefined },
    tmpDir: tempDir(),
    which: (name) => (name === 'python3' ? found : null),
    runProbe: async (file, args, env) => {
      calls.push([file, ...args.slice(0, 2), JSON.stringify(env)]);
      return probe;
    },
  };
  return { context, calls };
}

const answer = {
  executable: '/opt/py/3.11.7/bin/python3.11',
  version: '3.11.7 (main, Jan 1 2026)\n[GCC 12.2.0]',
  paths: ['/opt/py/3.11.7', '/opt/py/3.11.7/lib/python3.11', '/opt/py/3.11.7/lib/python3.11/site-packages', '/srv/extra'],
};

describe('interpreter resolution', () => {
  it('runs the host interpreter once and builds a shim directory pointing at the real binary', async () => {
    const { context, calls } = scripted({ stdout: `${JSON.stringify(answer)}\n`, stderr: '', exitCode: 0 });
    const resolver = createInterpreterResolver(context);
    const first = await resolver.python();
    const second = await resolver.python();
    expect(second).toBe(first);
    expect(calls).toEqual([['/fake/shims/python3', '-E', '-s', JSON.stringify({ PYENV_VERSION: '3.11.7' })]]);
    if ('error' in first) throw new Error(first.error);
    expect(first).toMatchObject({
      executable: answer.executable,
      version: '3.11.7 (main, Jan 1 2026) [GCC 12.2.0]',
      binDir: '/opt/py/3.11.7/bin',
      libraryPaths: ['/opt/py/3.11.7', '/srv/extra'],
    });
    expect(first.mounts).toEqual({ pathPrepend: [first.shimDir, '/opt/py/3.11.7/bin'], readOnlyPaths: ['/opt/py/3.11.7', '/srv/extra'] });
    expect(readlinkSync(join(first.shimDir, 'python3'))).toBe(answer.executable);
    expect(readlinkSync(join(first.shimDir, 'python'))).toBe(answer.executable);
    await resolver.dispose();
  });

  it('reports a missing interpreter and a failing probe as data', async () => {
    const missing = await createInterpreterResolver(scripted({ stdout: '', stderr: '', exitCode: 0 }, null).context).python();
    expect(missing).toEqual({ error: 'no python3 or python on PATH (/fake/shims:/usr/bin)' });
    const broken = await createInterpreterResolver(
      scripted({ stdout: '', stderr: 'pyenv: version `3.9` is not installed\n', exitCode: 1 }).context,
    ).python();
    expect(broken).toEqual({
      error: '/fake/shims/python3 failed to report its real path (exit 1): pyenv: version `3.9` is not installed',
    });
  });

  it('resolves the real interpreter on this machine', async () => {
    const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tempDir() });
    const python = await resolver.python();
    if ('error' in python) throw new Error(python.error);
    expect(python.version).toMatch(/^3\.\d+\.\d+ /);
    expect(python.executable).not.toContain('/shims/');
    await resolver.dispose();
  });
});

describe('bubblewrap mount plan', () => {
  const sandbox = createBubblewrapSandbox({
    bwrapPath: '/usr/bin/bwrap',
    features: { version: 'bubblewrap test', tmpfsSize: true, disableUserns: true },
    seccomp: () => Promise.resolve('not asked: these runs are refused before'),
  });

  it('refuses a read-only path that would land on the workspace, as data', async () => {
    const result = await sandbox.run({ workdir: tempDir(), command: 'true', readOnlyPaths: ['/workspace/evil'] });
    expect(result).toMatchObject({ kind: 'bubblewrap', exitCode: null });
    expect(result.error).toBe("cannot bind /workspace/evil read-only: it would land on the sandbox's own /workspace");
  });

  it('refuses a read-only path that does not exist, as data', async () => {
    const result = await sandbox.run({ workdir: tempDir(), command: 'true', readOnlyPaths: ['/nonexistent/packet-kit'] });
    expect(result.error).toBe('cannot bind /nonexistent/packet-kit read-only: it does not exist');
  });
});
