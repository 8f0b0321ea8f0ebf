import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/run-cli.ts';
import { FIXTURES, fixtureProject } from './helpers.ts';

async function check(args: string[], overrides: Parameters<typeof memoryIo>[1] = {}) {
  const io = memoryIo(fixtureProject(), overrides);
  const code = await runCli(['check', ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

describe('packet check runs the lint', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pk-check-'));
    dirs.push(dir);
    return dir;
  };

  it('warnings fail the run only with --strict', async () => {
    const packets = ['--packets', `${FIXTURES}/code-fence-lang`];
    const plain = await check(packets);
    expect(plain.code).toBe(0);
    expect(plain.out).toBe(
      `${FIXTURES}/code-fence-lang/fail/sample.mdx:15:1 PK216 warning This code block names no language, so it renders unhighlighted and a reader cannot tell a command from output. (code-fence-lang)\n` +
        '  hint: Name the language after the fence: ```bash, ```python, ```text.\n' +
        '2 packets checked (2 parsed): 0 errors, 1 warning.\n',
    );
    expect((await check([...packets, '--strict'])).code).toBe(1);
    expect((await check([...packets, '--strict', 'pass'])).code).toBe(0);
  });

  it('lint errors fail the run; --no-lint validates only', async () => {
    const packets = ['--packets', `${FIXTURES}/sample-label`];
    expect((await check(packets)).code).toBe(1);
    expect((await check([...packets, '--no-lint'])).code).toBe(0);
  });

  it('--format json gives the same diagnostics as data', async () => {
    const { code, out } = await check(['--packets', `${FIXTURES}/rubric-rows`, '--format', 'json']);
    expect(code).toBe(1);
    const doc = JSON.parse(out);
    expect(doc.summary).toEqual({ errors: 2, warnings: 0 });
    expect(doc.diagnostics).toEqual([
      expect.objectContaining({ code: 'PK208', name: 'RubricRowsOutOfShape', rule: 'rubric-rows', severity: 'error', file: `${FIXTURES}/rubric-rows/fail/rubric.mdx`, line: 3, column: 1 }),
      expect.objectContaining({ code: 'PK208', rule: 'rubric-rows', line: 6, column: 10, message: expect.stringContaining('"correctness" is worth 4 points') }),
    ]);
  });

  it('shows a code frame on a terminal, but never for a secret', async () => {
    const tty = { isTTY: true, env: { NO_COLOR: '1' } };
    const fence = await check(['--packets', `${FIXTURES}/code-fence-lang`], tty);
    expect(fence.out).toMatch(/\n {2}> 15 \| ```\n {7}\| {2}\^\n/);
    const secret = await check(['--packets', `${FIXTURES}/no-secrets`], tty);
    expect(secret.out).toContain('settings.py:3:12 PK207 error');
    expect(secret.out).not.toContain('hunter2');
  });

  it('reads the project config from the working directory, or from --config', async () => {
    const dir = await tempDir();
    const packets = path.join(fixtureProject(), FIXTURES, 'code-fence-lang');
    await writeFile(path.join(dir, 'packet-kit.config.json'), JSON.stringify({ lint: { rules: { 'code-fence-lang': 'off' } } }));
    expect((await check(['--packets', packets, '--strict'], { cwd: dir })).code).toBe(0);
    const config = path.join(dir, 'errors.json');
    await writeFile(config, JSON.stringify({ lint: { rules: { 'code-fence-lang': 'error' } } }));
    expect((await check(['--packets', packets, '--config', config])).code).toBe(1);
    const missing = await check(['--packets', packets, '--config', 'no-such-config.json']);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('no-such-config.json PK290 error');
  });

  it('a scaffolded packet passes check --strict', async () => {
    const dir = await tempDir();
    const io = memoryIo(dir);
    expect(await runCli(['new', 'fresh-packet', '--packets', 'packets'], io)).toBe(0);
    const { code, out } = await check(['--packets', path.join(dir, 'packets'), '--strict'], { cwd: dir });
    expect(out).toBe('1 packet checked (1 parsed): 0 errors, 0 warnings.\n');
    expect(code).toBe(0);
  });
});
