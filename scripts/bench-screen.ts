// node scripts/bench-screen.ts: the static screen (src/judge/harness/screen.py) on every shipped
// sample solution, in process, against ast.parse of the same files alone (the floor no screen can go
// under), printed as milliseconds and as a ratio. The harness calls the screen on every judged run.
// BENCH_ROUNDS=n sets the rounds (default 50; the best is kept, as load only ever adds).
import { execFileSync } from 'node:child_process';
import { glob, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterpreterResolver } from '../src/sandbox/interpreters.ts';

const root = path.resolve(import.meta.dirname, '..');
const rounds = Number(process.env.BENCH_ROUNDS ?? 50);

const files: [string, string][] = [];
for await (const rel of glob('packets/*/sample/**/*.py', { cwd: root })) {
  files.push([rel, (await readFile(path.join(root, rel))).toString('base64')]);
}
files.sort(([a], [b]) => (a < b ? -1 : 1));

const timing = `
import ast, base64, json, sys, time
sys.path.insert(0, sys.argv[1])
from screen import screen
req = json.loads(sys.stdin.read())
files = [(p, base64.b64decode(d)) for p, d in req["files"]]
texts = [d.decode("utf-8") for _, d in files]
def best(fn):
    out = float("inf")
    for _ in range(req["rounds"]):
        t = time.perf_counter(); fn(); out = min(out, time.perf_counter() - t)
    return out * 1000
parse = best(lambda: [ast.parse(t) for t in texts])
total = best(lambda: screen(files, []))
print(json.dumps({"parse": parse, "screen": total, "version": sys.version.split()[0]}))
`;

const resolver = createInterpreterResolver({ searchPath: process.env.PATH ?? '', env: process.env, tmpDir: tmpdir() });
const python = await resolver.python();
await resolver.dispose();
if ('error' in python) throw new Error(python.error);
const out = execFileSync(python.executable, ['-I', '-B', '-c', timing, path.join(root, 'src/judge/harness')], {
  input: JSON.stringify({ files, rounds }),
});
const r = JSON.parse(out.toString('utf8')) as { parse: number; screen: number; version: string };
console.log(`static screen, ${files.length} sample files, Python ${r.version}, best of ${rounds}:`);
console.log(`  screen ${r.screen.toFixed(2)} ms, ast.parse alone ${r.parse.toFixed(2)} ms: ${(r.screen / r.parse).toFixed(2)}x the parse`);
