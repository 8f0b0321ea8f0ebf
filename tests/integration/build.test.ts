import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZipEntries } from '../../src/bundle/canary.ts';
import { KIT_ROOT, siteWorkDir } from '../../src/bundle/site-build.ts';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import type { BuildManifest } from '../../src/packets/build-status.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';

const BIN = fileURLToPath(new URL('../../src/cli/bin.js', import.meta.url));
const PLANTED_NOTE = 'The hidden test parses 97h86m75s and expects 356835 seconds.';
const PUBLIC_NOTE = 'Comments and docstrings are not graded either way.';

/** Every text of a built folder, zips opened and gzip files read, as one string per file. */
async function textsOf(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    const bytes = await readFile(abs);
    const rel = path.relative(dir, abs);
    if (rel.endsWith('.zip')) for (const z of await readZipEntries(bytes)) out.set(`${rel}!${z.path}`, Buffer.from(z.bytes).toString('utf8'));
    // The search index writes its fragments, words and metadata gzipped.
    else out.set(rel, (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return out;
}

/** Every file under a folder with its sha256: a snapshot to compare before and after. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    out[path.relative(dir, abs)] = createHash('sha256').update(await readFile(abs)).digest('hex');
  }
  return out;
}

/** Leftover staging or aside folders next to the targets. */
async function leftovers(root: string): Promise<string[]> {
  const names = [...(await readdir(root)), ...(await readdir(path.join(root, 'out')).catch(() => [] as string[]))];
  return names.filter((n) => /-(staging|old)-\d+$|-publish\.json$/.test(n));
}

describe('packet build', () => {
  let t: TempPackets;
  beforeAll(async () => {
    t = await tempPackets();
    await t.add('healthy');
    // A held-out input an author quoted in the rubric's reviewer-only section, and one public line beside it.
    await t.write('healthy', 'rubric.mdx', `${await t.read('healthy', 'rubric.mdx')}\n### The held-out input\n\n${PLANTED_NOTE}\n\n## Not graded\n\n${PUBLIC_NOTE}\n`);
    // A mutation run of an earlier version, as `packet mutate` leaves it in its default folder.
    const run = path.join(t.root, 'out/mutate/healthy');
    await mkdir(run, { recursive: true });
    const summary = { asked: 2, proposed: 2, killed: 1, survived: 1, crashed: 0, invalid: 0, duplicates: 0, unjudged: 0, score: 50 };
    const mutants = [{ id: 2, fault: 'bad input becomes zero', path: 'src/duration.py', status: 'survived', reason: 'every test passes', turn: 1 }];
    await writeFile(path.join(run, 'report.json'), JSON.stringify({ schemaVersion: 1, packet: 'healthy', digest: '0'.repeat(64), model: 'scripted:healthy/mutants', date: '2026-11-29T12:00:00.000Z', verdict: 'classified', mutants, summary }));
    await writeFile(path.join(run, 'mutation-report.json'), '{"schemaVersion":"2","thresholds":{"high":80,"low":60},"files":{}}\n');
  });
  afterAll(() => t.dispose());

  const build = async (...args: string[]) => {
    const io = memoryIo(t.root, { env: process.env });
    const code = await runCli(['build', ...args], io);
    return { code, stdout: io.stdout, stderr: io.stderr };
  };
  const manifest = async () => JSON.parse(await readFile(path.join(t.root, 'dist/packets.json'), 'utf8')) as BuildManifest;

  let firstZip: Buffer;

  it('checks, rehearses, zips, builds the site and the reviewer bundles, and swaps them in', async () => {
    const r = await build();
    expect(r.code, r.stderr).toBe(0);
    for (const step of ['check', 'rehearse', 'zips', 'site', 'canary', 'reviewer', 'publish', 'done']) expect(r.stdout).toMatch(new RegExp(`^build: ${step} `, 'm'));
    const m = await manifest();
    expect(m.schemaVersion).toBe(1);
    expect(m.packets).toHaveLength(1);
    const p = m.packets[0]!;
    expect(p).toMatchObject({ id: 'healthy', version: '0.1.0', zip: 'healthy-0.1.0.zip', rehearsal: 'fails-closed' });
    firstZip = await readFile(path.join(t.root, 'dist/zips', p.zip));
    expect(p.sha256).toBe(createHash('sha256').update(firstZip).digest('hex'));
    expect(p.size).toBe(firstZip.byteLength);
    expect((await readFile(path.join(t.root, 'dist/index.html'), 'utf8')).length).toBeGreaterThan(0);
    // The site started before the zips existed, and still shows this build's zip (the manifest gate).
    expect(await readFile(path.join(t.root, 'dist/packets/healthy/index.html'), 'utf8')).toContain(p.sha256);
    const bundle = await readZipEntries(await readFile(path.join(t.root, 'out/reviewer/healthy-0.1.0.zip')));
    const key = new TextDecoder().decode(bundle.find((e) => e.path === 'healthy-0.1.0/KEY.md')!.bytes);
    expect(key).toContain(p.sha256);
    expect(key).toMatch(/Verdict: fails closed/);
    expect(bundle.some((e) => e.path === 'healthy-0.1.0/REHEARSAL.json')).toBe(true);
    expect(key).toContain('STALE: this run is for digest 000000000000, another version of the packet. Mutation score 50%: 2 mutants: 1 killed, 1 survived');
    expect(bundle.some((e) => e.path === 'healthy-0.1.0/MUTATION.json')).toBe(true);
    expect(JSON.parse(await readFile(path.join(t.root, 'out/rehearsal/report.json'), 'utf8')).packets[0].status).toBe('fails-closed');
    expect(await leftovers(t.root)).toEqual([]);
  });

  it("keeps the rubric's reviewer notes out of the site and the candidate zip, and puts them in the reviewer bundle", async () => {
    const dist = await textsOf(path.join(t.root, 'dist'));
    const leaks = [...dist].filter(([, text]) => /97h86m75s|Score refusal by trying one bad/.test(text.replace(/\s+/g, ' '))).map(([where]) => where);
    expect(leaks).toEqual([]);
    const rubricMd = dist.get('zips/healthy-0.1.0.zip!healthy-0.1.0/RUBRIC.md')!;
    expect(rubricMd).toContain(PUBLIC_NOTE);
    expect(dist.get('packets/healthy/rubric/index.html')).toContain(PUBLIC_NOTE);
    const key = new TextDecoder().decode((await readZipEntries(await readFile(path.join(t.root, 'out/reviewer/healthy-0.1.0.zip')))).find((e) => e.path === 'healthy-0.1.0/KEY.md')!.bytes);
    expect(key).toContain(`## Reviewer notes`);
    expect(key).toContain(PLANTED_NOTE);
    expect(key).not.toContain(PUBLIC_NOTE);
  });

  it('builds the same zip again, and marks a build without rehearsal "not rehearsed"', async () => {
    const r = await build('--skip-rehearse');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rehearse\s+skipped/);
    const p = (await manifest()).packets[0]!;
    expect(p.rehearsal).toBe('not-rehearsed');
    expect((await readFile(path.join(t.root, 'dist/zips', p.zip))).equals(firstZip)).toBe(true);
  });

  it('builds a folder without drills without an Astro warning (an empty collection is not read)', async () => {
    expect(await readdir(t.packets)).toEqual(['healthy']);
    const r = await build('--skip-rehearse');
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\[WARN\]|does not exist or is empty/);
    expect(existsSync(path.join(t.root, 'dist/drills'))).toBe(false);
  });

  it('builds another site root late, with the manifest already written', async () => {
    // Another spelling of the kit's own folder: a site root that is not the kit's is not assumed to wait for the manifest.
    const r = await build('--skip-rehearse', '--site-root', KIT_ROOT.replace(/\/+$/, ''));
    expect(r.code, r.stderr).toBe(0);
    const p = (await manifest()).packets[0]!;
    expect(await readFile(path.join(t.root, 'dist/packets/healthy/index.html'), 'utf8')).toContain(p.sha256);
  });

  it('stops at the check on a file the zips would refuse, names the packet, and keeps the previous dist', async () => {
    const before = await snapshot(path.join(t.root, 'dist'));
    const reviewerBefore = await snapshot(path.join(t.root, 'out/reviewer'));
    await t.write('healthy', 'starter/.env', 'API_KEY=placeholder\n');
    try {
      const r = await build('--skip-rehearse');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/packet build: failed at step "check" \(packet: healthy\)/);
      expect(r.stderr).toMatch(/packets\/healthy\/starter\/\.env PK306 error/);
    } finally {
      await rm(path.join(t.packets, 'healthy/starter/.env'));
    }
    expect(await snapshot(path.join(t.root, 'dist'))).toEqual(before);
    expect(await snapshot(path.join(t.root, 'out/reviewer'))).toEqual(reviewerBefore);
    expect(await leftovers(t.root)).toEqual([]);
  });

  it('stops at the check on an invalid packet and keeps the previous dist', async () => {
    const before = await snapshot(path.join(t.root, 'dist'));
    const prompt = await t.read('healthy', 'prompt.mdx');
    await t.edit('healthy', 'prompt.mdx', 'minutes: 45', 'minutes: forty-five');
    try {
      const r = await build('--skip-rehearse');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/packets\/healthy\/prompt\.mdx:\d+:\d+ PK107/);
      expect(r.stderr).toMatch(/failed at step "check" \(packet: healthy\)/);
      expect(r.stderr).toContain('PK313');
    } finally {
      await t.write('healthy', 'prompt.mdx', prompt);
    }
    expect(await snapshot(path.join(t.root, 'dist'))).toEqual(before);
  });

  it('stops at the check on a lint error found while Astro runs, and stops Astro', async () => {
    const before = await snapshot(path.join(t.root, 'dist'));
    const prompt = await t.read('healthy', 'prompt.mdx');
    // Valid frontmatter (so the zips are built and Astro starts), but the body no longer shows the test command.
    await t.edit('healthy', 'prompt.mdx', '```bash\npython3 -m unittest discover -s tests -t . -q\n```', 'Run the tests as usual.');
    try {
      const r = await build('--skip-rehearse');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/PK205/);
      expect(r.stderr).toMatch(/failed at step "check" \(packet: healthy\)/);
      expect(r.stdout).not.toMatch(/^build: site/m);
    } finally {
      await t.write('healthy', 'prompt.mdx', prompt);
    }
    expect(await snapshot(path.join(t.root, 'dist'))).toEqual(before);
    expect(await leftovers(t.root)).toEqual([]);
  });

  it('keeps the previous dist when killed during the site build, and removes its staging folder', async () => {
    const before = await snapshot(path.join(t.root, 'dist'));
    const child = spawn(process.execPath, [BIN, 'build', '--skip-rehearse'], { cwd: t.root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      // The zips are in staging and Astro has started: the worst moment to die.
      if (!killed && /^build: zips /m.test(stdout)) {
        killed = true;
        setTimeout(() => child.kill('SIGTERM'), 100);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(killed).toBe(true);
    expect(stdout).not.toMatch(/^build: publish/m);
    expect(stderr).toMatch(/interrupted/);
    expect(code).toBe(143);
    expect(await snapshot(path.join(t.root, 'dist'))).toEqual(before);
    expect(await leftovers(t.root)).toEqual([]);
    expect(existsSync(siteWorkDir(KIT_ROOT, String(child.pid)))).toBe(false); // Astro's own work folder too
  });

  it('refuses a target that would replace the project, the packets or the other target', async () => {
    for (const args of [['--out-dir', '.'], ['--out-dir', '..'], ['--out-dir', 'packets/site'], ['--reviewer-dir', 'dist/reviewer'], ['--out-dir', 'out']]) {
      const r = await build('--skip-rehearse', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/give it a folder of its own/);
    }
  });

  it('puts back the previous dist after a build that died between the two renames of its swap', async () => {
    const before = await snapshot(path.join(t.root, 'dist'));
    const { rename } = await import('node:fs/promises');
    // A dead process's aside folder (pid 2^22+1 is above Linux's pid_max default) and no dist.
    await rename(path.join(t.root, 'dist'), path.join(t.root, '.dist-old-4194305'));
    await writeFile(path.join(t.root, '.dist-staging-4194305'), 'half-written');
    const r = await build('--skip-rehearse', '--packets', 'nowhere');
    expect(r.code).toBe(1); // the build itself fails (no packets folder)...
    expect(r.stdout).toMatch(/restored \.dist-old-4194305 as dist/);
    expect(await snapshot(path.join(t.root, 'dist'))).toEqual(before); // ...but the old site is back
    expect(await leftovers(t.root)).toEqual([]);
  });
});

describe('packet build of a folder of drills only', () => {
  let t: TempPackets;
  beforeAll(async () => {
    t = await tempPackets();
    await t.add('drill-fixture', {}, 'drill');
  });
  afterAll(() => t.dispose());

  it('builds the drill pages and an empty catalog of packets without an Astro warning', async () => {
    const io = memoryIo(t.root, { env: process.env });
    const code = await runCli(['build', '--skip-rehearse'], io);
    expect(code, io.stderr).toBe(0);
    expect(`${io.stdout}${io.stderr}`).not.toMatch(/\[WARN\]|does not exist or is empty/);
    expect(existsSync(path.join(t.root, 'dist/drills/drill-fixture/score/index.html'))).toBe(true);
    expect(existsSync(path.join(t.root, 'dist/packets'))).toBe(false);
    expect(await readFile(path.join(t.root, 'dist/index.html'), 'utf8')).toContain('data-card="drill-fixture"');
  });
});
