import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/run-cli.ts';
import { loadPackets } from '../../src/packets/load.ts';
import { tempPackets, type TempPackets } from '../support/packet-fixtures.ts';
import { zipOf } from '../support/zip-of.ts';

/**
 * `packet grade` on submissions whose names, file names and README carry hostile text: an escape
 * sequence that clears the terminal, a newline followed by a forged "**PASS**, decision so far:
 * **hire**" line, a right-to-left override, a spreadsheet formula. Every output (scorecard.md,
 * scorecard.json, summary.csv, summary.json, the terminal) shows them escaped: no raw control
 * character, no forged Markdown line, no formula cell.
 */
const FORGED = '\n**PASS**, decision so far: **hire**';
const HOSTILE = `\u001b[2J\u001b]0;owned\u0007${FORGED}\r\u202e=cmd|' /C calc'!A0\u0000`;
/** Controls a report must never carry raw: C0 but tab and line feed, DEL, C1, the bidi and zero-width characters. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

let t: TempPackets;
let exitCode: number;
let stdout: string;
let stderr: string;
const out = () => path.join(t.root, 'out/grades/scaffold');

beforeAll(async () => {
  t = await tempPackets();
  await t.add('scaffold');
  const digest = (await loadPackets({ packetsDir: t.packets, cwd: t.root })).packets.find((p) => p.id === 'scaffold')!.digest;
  const subs = path.join(t.root, 'submissions');
  await mkdir(subs);
  // A folder named with the hostile text, the sample in it (so it is graded), a README whose version is hostile too.
  const folder = path.join(subs, `x${HOSTILE.replace(/\u0000|\//g, '')}`);
  await cp(path.join(t.packets, 'scaffold', 'starter'), folder, { recursive: true });
  await cp(path.join(t.packets, 'scaffold', 'sample'), folder, { recursive: true });
  await writeFile(path.join(folder, 'README.md'), `# Fixture\n\n- Packet: \`scaffold\`, version \`0.0${HOSTILE.replace(/`/g, '')}\`\n- Digest: \`${digest}\`\n`);
  // A zip whose entry is named with it (the UTF-8 flag set: the name is refused).
  await zipOf(path.join(subs, `z${HOSTILE.replace(/\u0000|\//g, '')}.zip`), new Map([[`scaffold-0.1.0/src/a${HOSTILE.replace(/\u0000|\//g, '')}.py`, 'x = 1\n']]));
  const io = memoryIo(t.root, { env: process.env });
  exitCode = await runCli(['grade', 'scaffold', ...(await readdir(subs)).sort().map((n) => `submissions/${n}`)], io);
  stdout = io.stdout;
  stderr = io.stderr;
}, 120_000);

afterAll(() => t.dispose());

describe('packet grade with hostile names', () => {
  it('grades the batch', () => {
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/grading 2 submissions/);
  });

  it('prints no raw control character on the terminal', () => {
    expect(stdout).not.toMatch(RAW);
    expect(stderr).not.toMatch(RAW);
  });

  it('writes scorecards with no raw control character and no forged line', async () => {
    const cards = (await readdir(out(), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(cards).toHaveLength(2);
    for (const name of cards) {
      const md = await readFile(path.join(out(), name, 'scorecard.md'), 'utf8');
      expect(md).not.toMatch(RAW);
      expect(md).not.toContain('**PASS**, decision so far: **hire**');
      expect(md.split('\n').filter((l) => /^\*\*\w+\*\*, decision so far/.test(l))).toHaveLength(1);
      const json = await readFile(path.join(out(), name, 'scorecard.json'), 'utf8');
      expect(json).not.toMatch(RAW);
      expect(JSON.stringify(JSON.parse(json))).toContain('\\u001b[2J');
    }
  });

  it('writes a summary with no raw control character and no formula cell', async () => {
    const csv = await readFile(path.join(out(), 'summary.csv'), 'utf8');
    expect(csv).not.toMatch(RAW);
    for (const cell of csv.split(/[,\n]/)) expect(cell.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
    expect(await readFile(path.join(out(), 'summary.json'), 'utf8')).not.toMatch(RAW);
  });
});
