import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { describe, expect, it } from 'vitest';
import { buildCandidateZip, promptMarkdown, readmeMarkdown, rubricMarkdown } from '../../../src/bundle/candidate-zip.ts';
import { readZipEntries } from '../../../src/bundle/canary.ts';
import type { Diagnostic } from '../../../src/errors/diagnostic.ts';
import { edit } from '../lint/helpers.ts';
import { memPacket } from './helpers.ts';

const codes = (list: readonly Diagnostic[]) => list.map((d) => `${d.code} ${d.file}`);

/** A token that looks real to secretlint (a GitHub personal access token), assembled so this file holds none. */
const FAKE_GITHUB_TOKEN = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO', '0pINUx'].join('');

describe('the candidate zip', () => {
  it('holds PROMPT.md, RUBRIC.md, README.md and the starter tree, in one folder named by id and version', async () => {
    const { packet, read } = memPacket(undefined, 'tiny');
    const { zip, diagnostics } = await buildCandidateZip(packet, read);
    expect(diagnostics).toEqual([]);
    expect(zip!.name).toBe('tiny-0.1.0.zip');
    const entries = await readZipEntries(zip!.bytes);
    expect(entries.map((e) => e.path)).toEqual([
      'tiny-0.1.0/PROMPT.md',
      'tiny-0.1.0/README.md',
      'tiny-0.1.0/RUBRIC.md',
      'tiny-0.1.0/src/__init__.py',
      'tiny-0.1.0/src/duration.py',
      'tiny-0.1.0/tests/__init__.py',
      'tiny-0.1.0/tests/test_duration.py',
    ]);
    const readme = new TextDecoder().decode(entries.find((e) => e.path.endsWith('README.md'))!.bytes);
    expect(readme).toContain(packet.digest);
    expect(readme).toContain('```bash\npython3 -m unittest discover -s tests -t . -q\n```');
    expect(readme).toContain('- `src/duration.py`');
    expect(readme).toContain('version `0.1.0`');
  });

  it('is the same bytes when built twice', async () => {
    const { packet, read } = memPacket();
    const a = await buildCandidateZip(packet, read);
    const b = await buildCandidateZip(packet, read);
    expect(b.zip!.sha256).toBe(a.zip!.sha256);
  });

  it('renders the prompt and the rubric as plain Markdown: no MDX comment, ESM or JSX', async () => {
    const { packet } = memPacket((f) => ({
      'prompt.mdx': edit(
        f['prompt.mdx'],
        '## Goal',
        "import Note from '../components/Note.astro';\nexport const secret = 42;\n\n{/* reviewer: the trick is the anchored regex */}\n\n<Note kind=\"tip\">Read the tests first.</Note>\n\nA value of {1 + 1} and <abbr title=\"x\">inline JSX</abbr> here.\n\n## Goal",
      ),
      'rubric.mdx': `${f['rubric.mdx']}\n{/* not for candidates */}\n\n## Scoring tip\n\nStart with the tests.\n`,
    }));
    const prompt = promptMarkdown(packet);
    expect(prompt).toContain('Read the tests first.');
    expect(prompt).toContain('inline JSX');
    expect(prompt).not.toMatch(/import Note|export const|reviewer: the trick|<Note|<abbr|\{1 \+ 1\}|\{\/\*/);
    expect(prompt.startsWith('# Fixture Packet\n') || prompt.startsWith('# Memory packet\n')).toBe(true);
    const rubric = rubricMarkdown(packet);
    expect(rubric).not.toContain('not for candidates');
    expect(rubric).toContain('### Scoring tip'); // the notes sit one level down, under "Notes on scoring"
    expect(rubric).toMatch(/Hire bar: \d+ of \d+/);
    // Both parse as plain Markdown with nothing but Markdown in them.
    for (const text of [prompt, rubric]) {
      const tree = unified().use(remarkParse).parse(text) as Root;
      const kinds = new Set<string>();
      visit(tree, (n) => void kinds.add(n.type));
      expect([...kinds].filter((k) => k === 'html' || k.startsWith('mdx'))).toEqual([]);
    }
  });

  it("leaves the rubric's reviewer-only sections out of RUBRIC.md and the zip, and keeps the rest", async () => {
    const { packet, read } = memPacket((f) => ({
      'rubric.mdx': `${f['rubric.mdx']}\nThe hidden test feeds the duration 7h7m7s to the parser.\n\n## What a hire looks like\n\nGreen tests and honest notes.\n\n<ReviewerNotes>\nThe mutant drops the anchored regex.\n</ReviewerNotes>\n`,
    }));
    const rubric = rubricMarkdown(packet);
    expect(rubric).toContain('Notes are read before the diff');
    expect(rubric).toContain('## Notes on scoring');
    expect(rubric).toContain('### What a hire looks like\n\nGreen tests and honest notes.');
    for (const secret of ['Reviewer notes', 'Score refusal by trying one bad', '7h7m7s', 'anchored regex', 'ReviewerNotes']) expect(rubric).not.toContain(secret);
    const { zip } = await buildCandidateZip(packet, read);
    const text = (await readZipEntries(zip!.bytes)).map((e) => new TextDecoder().decode(e.bytes)).join('\n');
    for (const secret of ['Score refusal by trying one bad', '7h7m7s', 'anchored regex']) expect(text).not.toContain(secret);
  });

  it('writes no raw control character from the packet\'s text: a title or a body with a NUL or an escape sequence shows them escaped', () => {
    // The check refuses such a part (PK160); the writers escape what reaches them all the same.
    const { packet } = memPacket();
    packet.prompt.data.title = 'Memory\u0000 packet\u001b[2J\u202e';
    packet.prompt.body = packet.prompt.body.replace('## Goal', 'A line with \u0000 and \u001b[31m in it.\n\n## Goal');
    const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
    for (const md of [promptMarkdown(packet), rubricMarkdown(packet), readmeMarkdown(packet)]) {
      expect(md).not.toMatch(RAW);
      expect(md).toContain('Memory\\u0000 packet\\u001b\\[2J\\u202e');
    }
    // (Markdown's parser reads a NUL in a body as U+FFFD.)
    expect(promptMarkdown(packet)).toContain(' and \\u001b\\[31m in it.');
  });

  it('puts every rubric row, its points and levels, the hire bar and the vetoes on RUBRIC.md', () => {
    const { packet } = memPacket();
    const rubric = rubricMarkdown(packet);
    for (const row of packet.rubric.data.rows) {
      expect(rubric).toContain(`\`${row.id}\` (0-${row.max} points)`);
      for (const words of Object.values(row.levels)) expect(rubric).toContain(words);
    }
    expect(rubric).toContain(`${packet.rubric.data.hireBar} of`);
  });

  it('refuses a symbolic link or special file (PK304)', async () => {
    const { packet, read } = memPacket();
    packet.entries.push({ path: 'starter/src/link.py', kind: 'symlink', size: 0, sha256: '' });
    packet.entries.push({ path: 'starter/fifo', kind: 'other', size: 0, sha256: '' });
    const { zip, diagnostics } = await buildCandidateZip(packet, read);
    expect(zip).toBeUndefined();
    expect(codes(diagnostics)).toEqual(['PK304 packets/mem/starter/src/link.py', 'PK304 packets/mem/starter/fifo']);
    expect(diagnostics[0]!.message).toMatch(/symbolic link/);
  });

  it('refuses Git metadata (PK305), .env files (PK306) and key files (PK307)', async () => {
    const { packet, read } = memPacket(() => ({
      'starter/.git/config': '[core]\n',
      'starter/.env': 'TOKEN=x\n',
      'starter/config/.env.local': 'A=1\n',
      'starter/id_rsa': 'not really a key\n',
      'starter/certs/server.PEM': 'x\n',
      'starter/tls.key': 'x\n',
      'starter/.netrc': 'machine x\n',
      'starter/.gitignore': '*.pyc\n',
      'starter/id_rsa.pub': 'ssh-ed25519 AAAA public\n',
    }));
    const { zip, diagnostics } = await buildCandidateZip(packet, read);
    expect(zip).toBeUndefined();
    expect(codes(diagnostics).sort()).toEqual(
      [
        'PK305 packets/mem/starter/.git/config',
        'PK306 packets/mem/starter/.env',
        'PK306 packets/mem/starter/config/.env.local',
        'PK307 packets/mem/starter/.netrc',
        'PK307 packets/mem/starter/certs/server.PEM',
        'PK307 packets/mem/starter/id_rsa',
        'PK307 packets/mem/starter/tls.key',
      ].sort(),
    );
  });

  it('refuses a starter name with a bidi, zero-width or C1 control character (PK303), shown escaped', async () => {
    const { packet, read } = memPacket(() => ({ 'starter/src/evil\u202Eyp.py': 'x = 1\n', 'starter/ma\u200Bin.py': 'x = 1\n', 'starter/a\u0085.py': 'x = 1\n' }));
    const { zip, diagnostics } = await buildCandidateZip(packet, read);
    expect(zip).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['PK303', 'PK303', 'PK303']);
    expect(diagnostics.map((d) => d.message.replace(/ contains.*/, '')).sort()).toEqual(['The zip entry "a\\u0085.py"', 'The zip entry "ma\\u200bin.py"', 'The zip entry "src/evil\\u202eyp.py"']);
    expect(diagnostics.find((d) => d.message.includes('202e'))!.message).toContain('contains a bidi control (U+202E), which reorders the name');
  });

  it('refuses a starter file that would land on a generated file (PK309)', async () => {
    const { packet, read } = memPacket(() => ({ 'starter/readme.md': '# mine\n' }));
    const { diagnostics } = await buildCandidateZip(packet, read);
    expect(codes(diagnostics)).toEqual(['PK309 packets/mem/starter/readme.md']);
    expect(diagnostics[0]!.message).toContain('README.md');
  });

  it('scans every file for secrets before writing, and never shows the secret (PK308)', async () => {
    const { packet, read } = memPacket((f) => ({
      'starter/src/client.py': `import os\n\nTOKEN = "${FAKE_GITHUB_TOKEN}"\n`,
      'prompt.mdx': edit(f['prompt.mdx'], '## Goal', `Use the key \`${FAKE_GITHUB_TOKEN}\`.\n\n## Goal`),
    }));
    const { zip, diagnostics } = await buildCandidateZip(packet, read);
    expect(zip).toBeUndefined();
    // Found in the rendered PROMPT.md (reported at the part, whose lines differ) and at its own line and column in the starter file.
    expect(diagnostics.map((d) => `${d.code} ${d.file}:${d.line ?? '-'}:${d.column ?? '-'}`)).toEqual(['PK308 packets/mem/prompt.mdx:-:-', 'PK308 packets/mem/starter/src/client.py:3:10']);
    for (const d of diagnostics) {
      expect(d.sensitive).toBe(true);
      expect(JSON.stringify(d)).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    }
  });

  it('skips binary files in the secret scan and ships them as they are', async () => {
    const { packet, read } = memPacket();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
    packet.entries.push({ path: 'starter/logo.png', kind: 'file', size: png.length, sha256: '' });
    const { zip, diagnostics } = await buildCandidateZip(packet, async (rel) => (rel === 'starter/logo.png' ? png : read(rel)));
    expect(diagnostics).toEqual([]);
    const logo = (await readZipEntries(zip!.bytes)).find((e) => e.path.endsWith('logo.png'))!;
    expect([...logo.bytes]).toEqual([...png]);
  });
});
