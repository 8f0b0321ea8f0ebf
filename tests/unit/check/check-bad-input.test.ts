import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run-cli.ts';
import { memoryIo } from '../../../src/cli/io.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { tempPackets, type TempPackets } from '../../support/packet-fixtures.ts';

let t: TempPackets;
beforeEach(async () => {
  t = await tempPackets();
});
afterEach(async () => {
  await t.dispose();
});

async function check(...args: string[]): Promise<{ code: number; diagnostics: Diagnostic[]; text: string }> {
  const io = memoryIo(t.root);
  const code = await runCli(['check', '--format', 'json', ...args], io);
  const doc = JSON.parse(io.stdout) as { diagnostics: Diagnostic[] };
  return { code, diagnostics: doc.diagnostics, text: io.stdout };
}

function only(list: Diagnostic[], code: string): Diagnostic {
  const found = list.filter((d) => d.code === code);
  expect(found, `expected exactly one ${code} in ${JSON.stringify(list, null, 1)}`).toHaveLength(1);
  return found[0]!;
}

describe('packet check on bad input', () => {
  it('is clean on a fresh scaffold', async () => {
    await t.add('good');
    const r = await check();
    expect(r.diagnostics).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('names a missing part file', async () => {
    const dir = await t.add('p');
    await import('node:fs/promises').then((fs) => fs.rm(path.join(dir, 'rubric.mdx')));
    const r = await check();
    expect(r.code).toBe(1);
    const d = only(r.diagnostics, 'PK102');
    expect(d.file).toBe('packets/p/rubric.mdx');
    expect(d.message).toMatchInlineSnapshot(
      `"The packet has no rubric.mdx. Every packet has four parts: prompt, rubric, sample and failures."`,
    );
  });

  it('compiles every forbid pattern and names a broken one at its line (PK190)', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'pattern: "except\\\\s*:\\\\s*pass"', 'pattern: "except(\\\\s*:"');
    const r = await check('--strict');
    expect(r.code).toBe(1);
    const d = only(r.diagnostics, 'PK190');
    expect(d.line).toBe(await t.lineOf('p', 'prompt.mdx', 'pattern: "except(\\\\s*:"'));
    expect(d.message).toMatch(/does not compile \(.*Unterminated group/);
  });

  it('refuses an allow glob that can never match (PK191) and a deliverable no glob allows (PK192)', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'allow: ["src/**", "NOTES.md"]', 'allow: ["src/**", "{NOTES"]');
    const r = await check();
    expect(only(r.diagnostics, 'PK191').message).toContain('can never match');
    const d = only(r.diagnostics, 'PK192');
    expect(d.message).toContain('NOTES.md');
    expect(d.line).toBe(await t.lineOf('p', 'prompt.mdx', '  - NOTES.md'));
  });

  it('points a YAML syntax error at its line', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'language: python', 'language: [python');
    const r = await check();
    const d = only(r.diagnostics, 'PK105');
    expect(d.file).toBe('packets/p/prompt.mdx');
    expect(d.line).toBeGreaterThanOrEqual(await t.lineOf('p', 'prompt.mdx', 'language: [python'));
    expect(d.line).toBeLessThanOrEqual((await t.lineOf('p', 'prompt.mdx', 'language: [python')) + 1);
  });

  it('suggests the right name for a misspelt field, at the key', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'summary:', 'summery:');
    const r = await check();
    const unknown = only(r.diagnostics, 'PK106');
    expect([unknown.line, unknown.column]).toEqual([await t.lineOf('p', 'prompt.mdx', 'summery:'), 1]);
    expect(unknown.message).toMatchInlineSnapshot(`""summery" is not a field of prompt.mdx. Did you mean "summary"?"`);
    expect(only(r.diagnostics, 'PK108').message).toContain('"summary"');
  });

  it('suggests names for a typo in a nested field', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', '  tokens: 20000', '  tokenz: 20000');
    const r = await check();
    const d = r.diagnostics.find((x) => x.code === 'PK106')!;
    expect(d.line).toBe(await t.lineOf('p', 'prompt.mdx', 'tokenz'));
    expect(d.column).toBe(3);
    expect(d.message).toContain('Did you mean "tokens"?');
  });

  it('points a wrong type in a nested field at that field, not its parent', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', '  tokens: 20000', '  tokens: plenty');
    await t.edit('p', 'rubric.mdx', '    max: 2\n', '    max: two\n');
    const r = await check();
    const wrong = r.diagnostics.filter((d) => d.code === 'PK107');
    expect(wrong.map((d) => [d.file, d.line, d.column])).toEqual([
      ['packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', 'tokens: plenty'), 11],
      ['packets/p/rubric.mdx', await t.lineOf('p', 'rubric.mdx', 'max: two'), 10],
    ]);
    expect(wrong[0]!.message).toMatchInlineSnapshot(`""budget.tokens" must be a number, but it is the text "plenty"."`);
    expect(wrong[1]!.message).toContain('"rows[2].max"');
  });

  it('refuses sandbox caps above the kit maximum, naming the maximum, and takes the ones within it', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'changelog:', 'sandbox:\n  processes: 5000\n  workspaceMb: 16\n  certificates: true\nchangelog:');
    const d = only((await check()).diagnostics, 'PK107');
    expect([d.file, d.line]).toEqual(['packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', 'processes: 5000')]);
    expect(d.message).toMatchInlineSnapshot(
      `""sandbox.processes" must be at most 1024, but it is the number 5000; the kit never grants more than 1024 processes (its own maximum); make the tests need less."`,
    );
    await t.edit('p', 'prompt.mdx', 'processes: 5000', 'processes: 64');
    expect((await check()).diagnostics).toEqual([]);
  });

  it('wants a reason of a sentence for every screened primitive a packet allows, and names the fix', async () => {
    await t.add('p');
    const forbid = '      reason: Swallowing every error hides bad input.\n';
    await t.edit('p', 'prompt.mdx', forbid, `${forbid}  allowPrimitives:\n    - primitive: computed-attr\n      reason: needed\n    - primitive: fork\n`);
    const r = await check();
    const short = only(r.diagnostics, 'PK107');
    expect([short.file, short.line]).toEqual(['packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', 'reason: needed')]);
    expect(short.message).toMatchInlineSnapshot(
      `""workspace.allowPrimitives[0].reason" must be at least 20 characters, but it is the text "needed"; say in a sentence why a solution of this packet needs the primitive (at least 20 characters)."`,
    );
    const missing = only(r.diagnostics, 'PK108');
    expect(missing.message).toMatchInlineSnapshot(`""workspace.allowPrimitives[1]" has no "reason", and it is required."`);
    expect(missing.hint).toContain('npx packet explain prompt.workspace.allowPrimitives.reason');
    await t.edit('p', 'prompt.mdx', 'reason: needed', 'reason: The gate dispatches its steps by name.');
    await t.edit('p', 'prompt.mdx', '    - primitive: fork\n', '');
    expect((await check()).diagnostics).toEqual([]);
  });

  it('rejects an empty prompt body', async () => {
    await t.add('p');
    const text = await t.read('p', 'prompt.mdx');
    await t.write('p', 'prompt.mdx', text.slice(0, text.indexOf('\n---\n') + 5) + '\n   \n');
    const d = only((await check()).diagnostics, 'PK109');
    expect(d.file).toBe('packets/p/prompt.mdx');
    expect(d.line).toBe(await t.lineOf('p', 'prompt.mdx', 'First draft.') + 2);
  });

  it('parses BOM and CRLF files like any other', async () => {
    await t.add('p');
    for (const part of ['prompt.mdx', 'rubric.mdx', 'sample.mdx', 'failures.mdx']) {
      const text = await t.read('p', part);
      await t.write('p', part, '\uFEFF' + text.replace(/\n/g, '\r\n'));
    }
    const r = await check();
    expect(r.diagnostics).toEqual([]);
    // Positions stay right in a CRLF file.
    await t.edit('p', 'prompt.mdx', 'level: junior', 'level: intern');
    const d = only((await check()).diagnostics, 'PK107');
    expect([d.line, d.column]).toEqual([await t.lineOf('p', 'prompt.mdx', 'level: intern'), 8]);
  });

  it('refuses non-YAML frontmatter without evaluating it', async () => {
    await t.add('p');
    await t.add('q');
    const marker = path.join(t.root, 'evaluated');
    const js = `---js\nrequire('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports = { title: 'x' }\n---\n\nBody.\n`;
    await t.write('p', 'prompt.mdx', js);
    await t.write('q', 'rubric.mdx', '+++\nminutes = 10\n+++\n\nNotes.\n');
    const r = await check();
    const found = r.diagnostics.filter((d) => d.code === 'PK104');
    expect(found.map((d) => [d.file, d.line, d.column])).toEqual([
      ['packets/p/prompt.mdx', 1, 1],
      ['packets/q/rubric.mdx', 1, 1],
    ]);
    await expect(stat(marker)).rejects.toThrow();
  });

  it('refuses path traversal and absolute paths in referenced paths', async () => {
    await t.add('p');
    await t.edit('p', 'failures.mdx', 'mutant: mutants/drops-minutes', 'mutant: ../../outside');
    await t.edit('p', 'failures.mdx', 'reply: replies/accepts-garbage.md', 'reply: /etc/passwd');
    await t.edit('p', 'prompt.mdx', 'protected: ["tests/**"]', 'protected: ["../tests/**"]');
    const r = await check();
    const unsafe = r.diagnostics.filter((d) => d.code === 'PK110');
    expect(unsafe.map((d) => [d.file, d.line])).toEqual([
      ['packets/p/failures.mdx', await t.lineOf('p', 'failures.mdx', '../../outside')],
      ['packets/p/failures.mdx', await t.lineOf('p', 'failures.mdx', '/etc/passwd')],
      ['packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', '../tests/**')],
    ]);
  });

  it('refuses a mutant folder that is not under mutants/', async () => {
    await t.add('p');
    await t.edit('p', 'failures.mdx', 'mutant: mutants/drops-minutes', 'mutant: starter');
    const d = only((await check()).diagnostics, 'PK110');
    expect(d.message).toContain('not a folder directly under mutants/');
  });

  it('refuses symlinks in any tree', async () => {
    const dir = await t.add('p');
    await symlink('/etc/hostname', path.join(dir, 'starter', 'src', 'linked.py'));
    await symlink('../sample', path.join(dir, 'hidden', 'tests', 'escape'));
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.diagnostics.filter((d) => d.code === 'PK111').map((d) => d.file)).toEqual([
      'packets/p/hidden/tests/escape',
      'packets/p/starter/src/linked.py',
    ]);
  });

  it('reports duplicate ids from two folders', async () => {
    await t.add('retry-budget');
    await t.add('Retry_Budget');
    const r = await check();
    const d = only(r.diagnostics, 'PK112');
    expect(d.message).toContain('"retry-budget"');
    expect(r.code).toBe(1);
  });

  it('warns about a tree file over 1 MB, and fails only with --strict', async () => {
    const dir = await t.add('p');
    await writeFile(path.join(dir, 'starter', 'big.txt'), Buffer.alloc(1024 * 1024 + 1, 97));
    const r = await check();
    const d = only(r.diagnostics, 'PK113');
    expect(d.severity).toBe('warning');
    expect(d.file).toBe('packets/p/starter/big.txt');
    expect(r.code).toBe(0);
    expect((await check('--strict')).code).toBe(1);
  });

  it('checks cross-file references', async () => {
    const dir = await t.add('p');
    await t.edit('p', 'rubric.mdx', '  - row: refusal', '  - row: refusals');
    await t.edit('p', 'rubric.mdx', 'hireBar: 6', 'hireBar: 9');
    await t.edit('p', 'failures.mdx', 'reply: replies/drops-minutes.md', 'reply: replies/nope.md');
    await t.edit('p', 'failures.mdx', '      row: correctness', '      row: correct');
    await t.edit('p', 'prompt.mdx', 'protected: ["tests/**"]', 'protected: ["test/**"]');
    await import('node:fs/promises').then((fs) => fs.rm(path.join(dir, 'mutants', 'accepts-garbage'), { recursive: true }));
    const r = await check();
    const codes = r.diagnostics.map((d) => [d.code, d.file, d.line]);
    expect(codes).toEqual([
      ['PK121', 'packets/p/rubric.mdx', await t.lineOf('p', 'rubric.mdx', 'hireBar: 9')],
      ['PK120', 'packets/p/rubric.mdx', await t.lineOf('p', 'rubric.mdx', 'row: refusals')],
      ['PK123', 'packets/p/failures.mdx', await t.lineOf('p', 'failures.mdx', 'replies/nope.md')],
      ['PK127', 'packets/p/failures.mdx', await t.lineOf('p', 'failures.mdx', 'row: correct')],
      ['PK122', 'packets/p/failures.mdx', await t.lineOf('p', 'failures.mdx', 'mutants/accepts-garbage')],
      ['PK124', 'packets/p/prompt.mdx', await t.lineOf('p', 'prompt.mdx', 'test/**')],
      // The reply the mode no longer names.
      ['PK130', 'packets/p/replies/drops-minutes.md', undefined],
    ].sort((a, b) => String(a[1]).localeCompare(String(b[1])) || Number(a[2]) - Number(b[2])));
  });

  it('requires a test command', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'test: python3 -m unittest discover -s tests -t . -q', 'test: "  "');
    await t.add('q');
    await t.edit('q', 'prompt.mdx', 'test: python3 -m unittest discover -s tests -t . -q\n', '');
    const r = await check();
    const found = r.diagnostics.filter((d) => d.code === 'PK125');
    expect(found.map((d) => d.file)).toEqual(['packets/p/prompt.mdx', 'packets/q/prompt.mdx']);
    expect(found[0]!.line).toBe(await t.lineOf('p', 'prompt.mdx', 'test: "  "'));
  });

  it('reports every problem of every packet in one run', async () => {
    await t.add('a');
    await t.add('b');
    await t.edit('a', 'prompt.mdx', 'level: junior', 'level: intern');
    await t.edit('b', 'rubric.mdx', 'minutes: 10', 'minutes: ten');
    await t.edit('b', 'sample.mdx', 'label:', 'lable:');
    const r = await check();
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      'packets/a/prompt.mdx PK107',
      'packets/b/rubric.mdx PK107',
      'packets/b/sample.mdx PK106',
      'packets/b/sample.mdx PK108',
    ]);
  });

  it('checks only the named packets, and names an unknown one', async () => {
    await t.add('a');
    await t.add('b');
    await t.edit('b', 'prompt.mdx', 'level: junior', 'level: intern');
    expect((await check('a')).code).toBe(0);
    const r = await check('a', 'zzz');
    expect(only(r.diagnostics, 'PK114').message).toContain('"zzz"');
  });

  it('prints file:line:col CODE message with a hint in text mode', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', 'level: junior', 'level: intern');
    const io = memoryIo(t.root);
    expect(await runCli(['check'], io)).toBe(1);
    const line = await t.lineOf('p', 'prompt.mdx', 'level: intern');
    expect(io.stdout).toContain(`packets/p/prompt.mdx:${line}:8 PK107 error "level" must be one of`);
    expect(io.stdout).toContain('  hint: ');
    const tty = memoryIo(t.root, { isTTY: true });
    await runCli(['check'], tty);
    expect(tty.stdout).toContain(`> ${line} | level: intern`);
  });

  it('fails with a catalog error when the packets folder is missing', async () => {
    const io = memoryIo(t.root);
    expect(await runCli(['check', '--packets', 'nope'], io)).toBe(1);
    expect(io.stderr).toContain('PK101');
  });

  it('stops a YAML alias bomb at its first alias with a coded error, and checks the other packets', async () => {
    await t.add('bomb');
    await t.add('fine');
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) levels.push(`${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(9).fill(`*${'abcdefghij'[i - 1]}`).join(', ')}]`);
    await t.edit('bomb', 'prompt.mdx', '---\n', `---\n${levels.join('\n')}\n`);
    await t.edit('fine', 'prompt.mdx', 'level: junior', 'level: intern');
    const r = await check();
    const d = only(r.diagnostics, 'PK118');
    expect([d.file, d.line, d.column]).toEqual(['packets/bomb/prompt.mdx', await t.lineOf('bomb', 'prompt.mdx', 'b: &b'), 8]);
    expect(d.message).toMatchInlineSnapshot(
      `"The frontmatter's aliases (*name) expand past the limit of 100 alias uses, counting the aliases inside what each one repeats. Aliases that repeat aliases grow exponentially (a "billion laughs"), so the file is not read any further."`,
    );
    expect(only(r.diagnostics, 'PK107').file).toBe('packets/fine/prompt.mdx');
  });

  it('stops 3,000 levels of nesting at the level past the limit, in blocks, compact lists and brackets', async () => {
    let block = 'deep:\n';
    for (let i = 1; i <= 3000; i++) block += `${'  '.repeat(i)}k${i}:\n`;
    block += `${'  '.repeat(3001)}v\n`;
    const variants: Record<string, string> = {
      block,
      compact: `deep:\n  ${'- '.repeat(3000)}x\n`,
      flow: `deep: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
    };
    for (const [name, yaml] of Object.entries(variants)) {
      await t.add(name);
      await t.edit(name, 'rubric.mdx', '---\n', `---\n${yaml}`);
    }
    await t.add('fine');
    const r = await check();
    const deep = r.diagnostics.filter((d) => d.code === 'PK119');
    expect(deep.map((d) => d.file)).toEqual(['packets/block/rubric.mdx', 'packets/compact/rubric.mdx', 'packets/flow/rubric.mdx']);
    // The place is where the nesting passed 64 levels: the block's 64th key, the compact list's 64th dash, the 64th bracket.
    expect(deep.map((d) => [d.line, d.column])).toEqual([
      [(await t.lineOf('block', 'rubric.mdx', ' k64:')), 129],
      [await t.lineOf('compact', 'rubric.mdx', '- - -'), 3 + 63 * 2],
      [await t.lineOf('flow', 'rubric.mdx', 'deep: ['), 7 + 63],
    ]);
    expect(r.diagnostics.filter((d) => d.file.startsWith('packets/fine/'))).toEqual([]);
    expect(r.text).not.toMatch(/RangeError|at .*\.js:\d+/);
  });

  it('reads nesting a packet really uses, aliases included', async () => {
    await t.add('p');
    await t.edit('p', 'rubric.mdx', 'vetoes:\n', 'x-note: &n { a: [[[[1]]]] }\nvetoes:\n');
    // The unknown field is reported as usual: the YAML itself was read.
    expect(only((await check()).diagnostics, 'PK106').message).toContain('"x-note"');
  });

  it('refuses the file names the build refuses, and names with control characters', async () => {
    const dir = await t.add('p');
    await writeFile(path.join(dir, 'starter', '..\\evil.txt'), 'x\n');
    await writeFile(path.join(dir, 'starter', 'line\nbreak.txt'), 'x\n');
    await writeFile(path.join(dir, 'starter', 'README.md'), '# mine\n');
    await mkdir(path.join(dir, 'hidden', '.git'), { recursive: true });
    await writeFile(path.join(dir, 'hidden', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(dir, 'sample', 'id_rsa'), 'not a key\n');
    await writeFile(path.join(dir, 'mutants', 'drops-minutes', '.env'), 'A=1\n');
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.diagnostics.map((d) => `${d.code} ${JSON.stringify(d.file)}`)).toEqual([
      'PK305 "packets/p/hidden/.git/HEAD"',
      'PK306 "packets/p/mutants/drops-minutes/.env"',
      'PK307 "packets/p/sample/id_rsa"',
      'PK302 "packets/p/starter/..\\\\evil.txt"',
      'PK161 "packets/p/starter/line\\nbreak.txt"',
      'PK309 "packets/p/starter/README.md"',
    ]);
    expect(r.diagnostics.find((d) => d.code === 'PK161')!.message).toContain('"starter/line\\nbreak.txt" (shown escaped) has a name that holds a control character (U+000A)');
    // The text report never prints the raw newline: one diagnostic, one line.
    const io = memoryIo(t.root);
    await runCli(['check'], io);
    expect(io.stdout).toContain('packets/p/starter/line\\nbreak.txt PK161 error');
  });

  it('warns about a reply file that no failure mode names', async () => {
    const dir = await t.add('p');
    await writeFile(path.join(dir, 'replies', 'drops-minute.md'), 'A reply nobody runs.\n');
    const r = await check();
    const d = only(r.diagnostics, 'PK130');
    expect([d.file, d.severity]).toEqual(['packets/p/replies/drops-minute.md', 'warning']);
    expect(d.message).toContain('replies/drops-minutes.md, replies/accepts-garbage.md');
    expect(r.code).toBe(0);
    expect((await check('--strict')).code).toBe(1);
  });

  it('points a wrong value\'s hint at the field\'s explanation', async () => {
    await t.add('p');
    await t.edit('p', 'prompt.mdx', '  identicalErrors: 3\n', '');
    await t.edit('p', 'rubric.mdx', '    max: 2\n', '    max: two\n');
    const r = await check();
    expect(only(r.diagnostics, 'PK108').hint).toBe('Add "identicalErrors:" with a value; `npx packet explain prompt.budget.identicalErrors` says what it holds, with an example.');
    expect(only(r.diagnostics, 'PK107').hint).toBe('Fix the value of "rows[2].max"; `npx packet explain rubric.rows.max` says what it holds, with an example.');
  });

  it('makes a new packet that passes check, and never overwrites one', async () => {
    await mkdir(t.packets, { recursive: true });
    const io = memoryIo(t.root);
    expect(await runCli(['new', 'rate-limiter'], io)).toBe(0);
    expect((await check()).diagnostics).toEqual([]);
    const again = memoryIo(t.root);
    expect(await runCli(['new', 'rate-limiter'], again)).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(await runCli(['new', 'Bad Id'], memoryIo(t.root))).toBe(2);
  });
});
