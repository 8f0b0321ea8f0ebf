/**
 * Read a `python3 -m unittest discover ...` command: where discovery starts, the top-level folder
 * and the file pattern. A lab's test table is computed by a driver that discovers the tests as
 * this command would, so a lab's command must be one of these. Pure.
 */

/** How unittest discovers a packet's tests. */
export interface UnittestDiscovery {
  /** `-s`: the folder discovery starts in (default `.`). */
  start: string;
  /** `-t`: the top-level folder, the import root (default: the start folder). */
  top: string | null;
  /** `-p`: the file pattern (default `test*.py`). */
  pattern: string;
}

/** Split a command line on blanks, honouring single and double quotes; null on anything a plain command does not hold. */
function words(command: string): string[] | null {
  if (/[;&|<>`$()\\\n]/.test(command)) return null;
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of command.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** The discovery a command asks for, or null when it is not a plain `python3 -m unittest discover` command. */
export function unittestDiscovery(command: string): UnittestDiscovery | null {
  const w = words(command.trim());
  if (!w || w.length < 4 || !/^python3?$/.test(w[0]!) || w[1] !== '-m' || w[2] !== 'unittest' || w[3] !== 'discover') return null;
  const out: UnittestDiscovery = { start: '.', top: null, pattern: 'test*.py' };
  const positional: string[] = [];
  for (let i = 4; i < w.length; i++) {
    const a = w[i]!;
    const value = () => w[++i];
    if (a === '-s' || a === '--start-directory') out.start = value() ?? '';
    else if (a === '-t' || a === '--top-level-directory') out.top = value() ?? '';
    else if (a === '-p' || a === '--pattern') out.pattern = value() ?? '';
    else if (['-q', '--quiet', '-v', '--verbose', '-b', '--buffer', '-f', '--failfast', '-c', '--catch'].includes(a)) continue;
    else if (a.startsWith('-')) return null;
    else positional.push(a);
  }
  // `discover START PATTERN TOP`, as unittest reads positional arguments.
  if (positional.length > 3) return null;
  if (positional[0] !== undefined) out.start = positional[0];
  if (positional[1] !== undefined) out.pattern = positional[1];
  if (positional[2] !== undefined) out.top = positional[2];
  if (!out.start || !out.pattern || out.top === '') return null;
  return out;
}
