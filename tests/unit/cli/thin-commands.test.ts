import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const commands = path.resolve(import.meta.dirname, '../../../src/cli/commands');

describe('the commands are thin', () => {
  it('parse, call the library and print: no command file over 60 lines', () => {
    const files = readdirSync(commands).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(11);
    const long = files.map((f) => [f, readFileSync(path.join(commands, f), 'utf8').trimEnd().split('\n').length] as const).filter(([, n]) => n > 60);
    expect(long).toEqual([]);
  });
});
