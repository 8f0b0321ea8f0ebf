import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';
import { chownTree } from '../support/chown-tree.ts';

/**
 * A disk that fills in the middle of a run, for real (the sandbox, the embedded scripted
 * endpoint): a file the run writes is first linked to /dev/full, where every write fails with
 * ENOSPC. `packet mutate` (its reports, after every mutant is judged) and `packet rehearse` (a
 * scripted reply's receipts, as the model run goes) each end in their coded error naming the
 * folder, exit 2, never PK901.
 */
const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
let t: TempPackets;
// memoryIo's clock: 2026-11-29T12:00:00Z.
const OUT = 'out/rehearsals/2026-11-29T12-00-00-000Z';

function env(): Record<string, string | undefined> {
  const { LLM_ENDPOINT: _a, OPENAI_BASE_URL: _b, OPENAI_API_KEY: _c, ...rest } = process.env;
  return rest;
}

async function cli(argv: string[]) {
  const io = memoryIo(t.root, { env: env() });
  const code = await runCli(argv, io);
  return { code, stderr: io.stderr };
}

beforeAll(async () => {
  t = await tempPackets();
  await t.add('healthy');
  const sample = await t.read('healthy', 'sample/src/duration.py');
  await t.write('healthy', 'replies/mutants.md', JSON.stringify([{ fault: 'minutes count six seconds each', path: 'src/duration.py', code: sample.replace('"m": 60', '"m": 6') }]));
});
afterAll(() => t.dispose());

describe('a full disk in the middle of a run', () => {
  it('packet mutate: PK628 naming its folder (ENOSPC), exit 2, when a report is written after the mutants are judged', async () => {
    await mkdir(path.join(t.root, 'out', 'm'), { recursive: true });
    await symlink('/dev/full', path.join(t.root, 'out', 'm', `report.json.${process.pid}.tmp`));
    const { code, stderr } = await cli(['mutate', 'healthy', '--out', 'out/m']);
    expect(stderr).toMatch(/(^|\n)PK628 The mutation run's folder out\/m\/ cannot be written: no space left on device \(ENOSPC\)\. /);
    expect(stderr).not.toContain('PK901');
    expect(code).toBe(2);
    expect((await readdir(path.join(t.root, 'out', 'm'))).filter((f) => f.startsWith('report.json'))).toEqual([]);
  }, 120_000);

  it('packet rehearse: PK491 naming the model runs\' folder (ENOSPC), exit 2, when a scripted reply\'s receipts are written', async () => {
    const receipts = path.join(t.root, OUT, 'healthy', 'replies', 'sample');
    await mkdir(receipts, { recursive: true });
    await symlink('/dev/full', path.join(receipts, 'usage.jsonl'));
    const { code, stderr } = await cli(['rehearse', 'healthy', '--no-cache', '--report', 'report.json']);
    expect(stderr).toMatch(new RegExp(`(^|\\n)PK491 The model runs' folder ${OUT}/ cannot be written: no space left on device \\(ENOSPC\\)\\. `));
    expect(stderr).not.toContain('PK901');
    expect(code).toBe(2);
  }, 180_000);

  it('packet rehearse --model: PK491 naming --out (ENOSPC), exit 2, when the model run\'s receipts are written', async () => {
    const receipts = path.join(t.root, 'out', 'live', 'healthy');
    await mkdir(receipts, { recursive: true });
    await symlink('/dev/full', path.join(receipts, 'usage.jsonl'));
    const { code, stderr } = await cli(['rehearse', 'healthy', '--no-cache', '--report', 'live.json', '--model', 'scripted:{packet}/sample', '--out', 'out/live']);
    expect(stderr).toMatch(/(^|\n)PK491 The model runs' folder out\/live\/ cannot be written: no space left on device \(ENOSPC\)\. /);
    expect(stderr).not.toContain('PK901');
    expect(code).toBe(2);
  }, 180_000);

  it('packet mutate --adopt into a packet folder it cannot write (mode 0555, run as another user): PK629, exit 2, the packet as it was', async () => {
    const ran = await cli(['mutate', 'healthy', '--out', 'out/ok']);
    expect(ran.code).toBe(0);
    const failures = await t.read('healthy', 'failures.mdx');
    // A mode stops no write of root's: as root, the command runs as an unprivileged user.
    const asUser: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (asUser.uid !== undefined) await chownTree(t.root, asUser.uid, asUser.gid!);
    const dir = path.join(t.packets, 'healthy');
    await chmod(path.join(dir, 'mutants'), 0o555);
    await chmod(dir, 0o555);
    try {
      const run = spawnSync(process.execPath, [BIN, 'mutate', 'healthy', '--adopt', '1', '--as', 'six-seconds', '--out', 'out/ok'], { cwd: t.root, env: { PATH: process.env.PATH, HOME: t.root, CI: '1' }, encoding: 'utf8', ...asUser });
      expect(run.stderr).toMatch(/(^|\n)PK629 Mutant #1 of "healthy" cannot be written into packets\/healthy\/: permission denied \(EACCES\)\. /);
      expect(run.stderr).not.toContain('PK901');
      expect(run.status).toBe(2);
      expect(await readFile(path.join(dir, 'failures.mdx'), 'utf8')).toBe(failures);
      expect(await readdir(path.join(dir, 'mutants'))).not.toContain('six-seconds');
    } finally {
      await chmod(dir, 0o755);
      await chmod(path.join(dir, 'mutants'), 0o755);
    }
  }, 120_000);
});

