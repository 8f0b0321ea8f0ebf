/**
 * Tamper evidence. The runner's summary is printed by the process that runs the code under
 * test, so it cannot be the only witness: before each judged run the kit appends to every test
 * file one canary test of its own, with a random name and random values, that must fail. An
 * honest runner reports each canary failed (and exits non-zero); a runner patched to report
 * success reports them passed, and a process that prints a summary and exits early does not
 * report them at all. Either way the run is tampered, never green.
 *
 * The canary sits in the same file as the real tests, so a runner that drops or passes a whole
 * file drops or passes its canary too. New names every run: nothing written in advance can
 * know them.
 */
import type { RunnerStyle } from './test-ids.ts';

/** One canary, planted in one test file. */
export interface Canary {
  /** The test file it is appended to. */
  file: string;
  /** Its id in the judge's form (`file::Class::method` or `file::function`). */
  id: string;
  /** The Python text appended to the file. */
  source: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function word(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += LETTERS[Math.floor(random() * LETTERS.length) % LETTERS.length];
  return out;
}

/**
 * One canary for a test file. `unittestClass` writes it as a TestCase (collected by unittest
 * and pytest alike); otherwise as a plain pytest function. `taken` holds names already used in
 * the file, so a canary never shadows a real test.
 */
export function makeCanary(file: string, style: RunnerStyle, fileHasTestCase: boolean, random: () => number, taken: ReadonlySet<string> = new Set()): Canary {
  let suffix = word(random, 10);
  while (taken.has(`Test${suffix[0]!.toUpperCase()}${suffix.slice(1)}`) || taken.has(`test_${suffix}`)) suffix = word(random, 10);
  const left = 1000 + Math.floor(random() * 9000);
  const right = left + 1 + Math.floor(random() * 97);
  const method = `test_${word(random, 9)}`;
  if (style === 'unittest' || fileHasTestCase) {
    const cls = `Test${suffix[0]!.toUpperCase()}${suffix.slice(1)}`;
    return {
      file,
      id: `${file}::${cls}::${method}`,
      source: `\n\nclass ${cls}(__import__("unittest").TestCase):\n    def ${method}(self):\n        self.assertEqual(${left}, ${right})\n`,
    };
  }
  const fn = `test_${suffix}`;
  return { file, id: `${file}::${fn}`, source: `\n\ndef ${fn}():\n    assert ${left} == ${right}\n` };
}

/** A test file's text with its canary appended (a missing final newline is added first). */
export function withCanary(text: string, canary: Canary): string {
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${canary.source}`;
}
