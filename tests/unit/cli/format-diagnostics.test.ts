import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnosticsJson, formatDiagnosticsText } from '../../../src/cli/format-diagnostics.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';

/** A diagnostic's code frame quotes the packet's file: a control character in its line is shown as an escape, like the message's. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'packet-kit-frames-'));
  await writeFile(path.join(dir, 'prompt.mdx'), '---\ntitle: "x"\n---\n\nA line\u0000 with \u001b[2J\u001b[31m and \u202e in it.\nlast\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const d: Diagnostic = { code: 'PK199', name: 'X', severity: 'error', message: 'A control character \u001b here.', hint: 'Remove it.', file: 'prompt.mdx', line: 5, column: 7 };

describe('diagnostics with a code frame', () => {
  it('shows the file\'s control characters in the frame as escapes', () => {
    const text = formatDiagnosticsText([d], { cwd: dir, frames: true, color: false });
    expect(text).not.toMatch(RAW);
    expect(text).toContain('A line\\u0000 with \\u001b[2J\\u001b[31m and \\u202e in it.');
  });

  it('writes JSON with no raw bidi or C1 character', () => {
    const json = formatDiagnosticsJson([{ ...d, message: 'a \u202e b \u0085' }], ['p']);
    expect(json).not.toMatch(RAW);
    expect(JSON.parse(json).diagnostics[0].message).toBe('a \u202e b \u0085');
  });
});
