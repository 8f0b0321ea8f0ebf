/**
 * The public contract a mutant must keep: the def lines of what the tests import. Python's own
 * parser decides it, run in the sandbox with the interpreter the tests use (`signatures.py`:
 * `ast.parse` only, nothing is imported or executed), once per reply for the sample and every
 * proposed mutant together. A mutant is invalid when a function the tests import, or a method of
 * a class they import, changes its parameters (names, order, kinds, which have defaults), turns
 * async, changes a staticmethod / classmethod / property decorator, or disappears. Default
 * values and annotations are behaviour, not contract, and are not compared.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestRunner } from '../judge/run-tests.ts';

/** What one file's definitions are: signature by name (`f`, `Class`, `Class.method`), or why the file does not parse. */
export type Definitions = { defs: Record<string, string> } | { error: string };

/** What `signatures.py` read. */
export interface ContractReading {
  /** Names each source file gives the tests (`*` for a star import). */
  imports: Record<string, string[]>;
  /** The sample's definitions, by source path. */
  sample: Record<string, Definitions>;
  /** Each mutant's definitions, in the order given. */
  mutants: Definitions[];
}

const SCRIPT = new URL('./signatures.py', import.meta.url);

/** Run `signatures.py` in the sandbox over the sources, the test files and the mutants. Never throws: a failure comes back as `error`. */
export async function readContracts(o: {
  runner: TestRunner;
  scratchDir: string;
  sources: ReadonlyMap<string, string>;
  tests: ReadonlyMap<string, string>;
  mutants: readonly { path: string; code: string }[];
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
}): Promise<ContractReading | { error: string }> {
  const schedule = o.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  return schedule(async () => {
    const dir = await mkdtemp(path.join(o.scratchDir, 'packet-kit-contract-'));
    try {
      await writeFile(path.join(dir, 'signatures.py'), await readFile(SCRIPT));
      const input = { sources: Object.fromEntries(o.sources), tests: Object.fromEntries(o.tests), mutants: o.mutants.map((m) => ({ path: m.path, code: m.code })) };
      await writeFile(path.join(dir, 'contract-input.json'), JSON.stringify(input));
      const r = await o.runner.sandbox.run({
        workdir: dir,
        command: 'python3 signatures.py',
        timeoutMs: o.runner.timeoutMs,
        pathPrepend: o.runner.mounts.pathPrepend,
        readOnlyPaths: o.runner.mounts.readOnlyPaths,
        outputLimitBytes: 4 * 1024 * 1024,
      });
      if (r.error) return { error: `the sandbox could not read the signatures: ${r.error}` };
      if (r.exitCode !== 0) return { error: `reading the signatures failed (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''}): ${r.stderr.trim().split('\n').at(-1) ?? ''}` };
      try {
        return JSON.parse(r.stdout) as ContractReading;
      } catch {
        return { error: 'reading the signatures gave no JSON' };
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/** The names of `file` the tests depend on, expanded: a class brings its public methods and `__init__`; `*` brings every public name. */
function contractNames(file: string, reading: ContractReading): string[] {
  const sample = reading.sample[file];
  if (!sample || 'error' in sample) return [];
  const imported = new Set(reading.imports[file] ?? []);
  if (imported.has('*')) for (const name of Object.keys(sample.defs)) if (!name.includes('.') && !name.startsWith('_')) imported.add(name);
  const out: string[] = [];
  for (const name of [...imported].sort()) {
    const sig = sample.defs[name];
    if (!sig) continue;
    out.push(name);
    if (!sig.startsWith('class ')) continue;
    for (const member of Object.keys(sample.defs).sort()) {
      if (!member.startsWith(`${name}.`)) continue;
      const method = member.slice(name.length + 1);
      if (!method.startsWith('_') || (method.startsWith('__') && method.endsWith('__'))) out.push(member);
    }
  }
  return out;
}

/** Why mutant number `i` (0-based, on `file`) breaks the contract, or null. A mutant that does not parse is left to the run (it will not import). */
export function contractBreak(reading: ContractReading, i: number, file: string): string | null {
  const mutant = reading.mutants[i];
  const sample = reading.sample[file];
  if (!mutant || 'error' in mutant || !sample || 'error' in sample) return null;
  const changed: string[] = [];
  for (const name of contractNames(file, reading)) {
    const before = sample.defs[name]!;
    const after = mutant.defs[name];
    if (after === undefined) changed.push(`it removes ${name}, which the tests use`);
    else if (after !== before) changed.push(`${name} changes from "${before}" to "${after}"`);
  }
  return changed.length ? `it changes the public contract the tests import: ${changed.join('; ')}` : null;
}

/** The test files the contract is read from: every protected or held-out Python file (the tests and their helpers). */
export function testSources(starter: ReadonlyMap<string, Buffer>, hidden: ReadonlyMap<string, Buffer>, isGuarded: (f: string) => boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const [f, b] of starter) if (isGuarded(f) && f.endsWith('.py')) out.set(f, b.toString('utf8'));
  for (const [f, b] of hidden) if (f.endsWith('.py')) out.set(f, b.toString('utf8'));
  return out;
}
