import path from 'node:path';

/**
 * A value as one word of a POSIX shell command line, for a command the CLI prints for the user
 * to run: unchanged when it holds only safe characters, else in single quotes.
 */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The ` --packets DIR` a command printed for `cwd` needs to reach the folder `dir`: none for the default folder. */
export function packetsFlag(dir: string, cwd: string, defaultDir = 'packets'): string {
  return path.resolve(cwd, dir) === path.resolve(cwd, defaultDir) ? '' : ` --packets ${shellWord(dir)}`;
}
