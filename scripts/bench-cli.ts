// The CLI's start-up, for `npm run bench` (BENCH_ONLY=cli): the commands that touch one packet or
// none, each the median of BENCH_CLI_ROUNDS runs (default 7, after one run that fills the compile
// cache), beside `node -e 0` on the same Node: the floor any command pays. Then `npx packet --help`
// beside `npx --version` (npm's own start-up) and `npx vitest --version` (a dependency's bin, the
// floor of any `npx <bin>`). Target: every command under 500 ms.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** One line of the table: the command, its median, and its median over the floor's. */
export function cliRow(label: string, ms: number, floorMs: number): string {
  return `  ${label.padEnd(34)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / floorMs).toFixed(1).padStart(5)} x node -e 0${ms < 500 ? '' : '  (over 500 ms)'}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The median wall time of a command (its arguments in round `i`), in ms, after one run that is not counted; throws when it fails. */
function timed(file: string, args: string[] | ((i: number) => string[]), rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i <= rounds; i++) {
    const argv = typeof args === 'function' ? args(i) : args;
    const t0 = performance.now();
    const r = spawnSync(file, argv, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${file} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i > 0) times.push(ms);
  }
  return median(times);
}

export async function benchCli(): Promise<void> {
  const rounds = Number(process.env.BENCH_CLI_ROUNDS ?? 7);
  const scratch = await mkdtemp(path.join(tmpdir(), 'packet-bench-cli-'));
  try {
    const node = process.execPath;
    const bin = path.join(root, 'src/cli/bin.js');
    const floor = timed(node, ['-e', '0'], rounds);
    const commands: [string, string[]][] = [
      ['packet --help', ['--help']],
      ['packet explain budget.tokens', ['explain', 'budget.tokens']],
      ['packet explain PK106', ['explain', 'PK106']],
      ['packet explain PK213 (a lint code)', ['explain', 'PK213']],
      ['packet new <id> --help', ['new', '--help']],
      ['packet check fetch-retry-ticket', ['check', 'fetch-retry-ticket']],
    ];
    console.log(`cli: start-up, ${rounds} rounds (medians; the compile cache ${process.env.CI ? 'off: CI is set' : 'on'})`);
    console.log(cliRow('node -e 0', floor, floor));
    for (const [label, args] of commands) console.log(cliRow(label, timed(node, [bin, ...args], rounds), floor));
    // Each round writes a packet into a folder of its own, so no round finds the one before.
    console.log(cliRow('packet new bench-packet', timed(node, (i) => [bin, 'new', 'bench-packet', '--packets', path.join(scratch, String(i))], rounds), floor));
    console.log(cliRow('npx --version (npm alone)', timed('npx', ['--version'], rounds), floor));
    console.log(cliRow("npx vitest --version (a dependency's)", timed('npx', ['--no', 'vitest', '--version'], rounds), floor));
    console.log(cliRow('npx packet --help', timed('npx', ['--no', 'packet', '--help'], rounds), floor));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
