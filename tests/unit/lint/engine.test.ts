import { describe, expect, it } from 'vitest';
import { lintPackets } from '../../../src/lint/engine.ts';
import { brief, edit, lintMemory, memoryPacket } from './helpers.ts';

const twoBareFences = (f: Record<string, string>) => `${f['sample.mdx']}\nFirst:\n\n\`\`\`\n1h30\n\`\`\`\n\nSecond:\n\n\`\`\`\nh\n\`\`\`\n`;

describe('lint engine: inline directives', () => {
  it('a bare fence twice is reported twice', async () => {
    const list = await lintMemory((f) => ({ 'sample.mdx': twoBareFences(f) }));
    expect(list.map(brief)).toEqual([
      'packets/mem/sample.mdx:15:1 PK216 warning code-fence-lang',
      'packets/mem/sample.mdx:21:1 PK216 warning code-fence-lang',
    ]);
  });

  it('disable-next-line silences the next non-blank line only, for the rule it names', async () => {
    const list = await lintMemory((f) => ({
      'sample.mdx': edit(twoBareFences(f), 'First:\n\n', 'First:\n\n{/* packet-lint-disable-next-line code-fence-lang */}\n\n'),
    }));
    expect(list.map(brief)).toEqual(['packets/mem/sample.mdx:23:1 PK216 warning code-fence-lang']);
    const other = await lintMemory((f) => ({
      'sample.mdx': edit(twoBareFences(f), 'First:\n\n', 'First:\n\n{/* packet-lint-disable-next-line prompt-length */}\n'),
    }));
    expect(other).toHaveLength(2);
  });

  it('disable silences a rule in the whole file, frontmatter included, and nowhere else', async () => {
    const list = await lintMemory((f) => ({
      'sample.mdx': `${edit(twoBareFences(f), 'label: Sample solution, one acceptable answer among many', 'label: Reference solution')}\n{/* packet-lint-disable code-fence-lang, sample-label */}\n`,
      'prompt.mdx': edit(f['prompt.mdx'], '```bash', '```'),
    }));
    expect(list.map(brief)).toEqual(['packets/mem/prompt.mdx:59:1 PK216 warning code-fence-lang']);
  });

  it('a bare disable silences every rule of that file', async () => {
    const list = await lintMemory((f) => ({ 'sample.mdx': `${twoBareFences(f)}\n{/* packet-lint-disable */}\n` }));
    expect(list).toEqual([]);
  });

  it('the HTML comment form works in a plain Markdown body (which mdx-syntax reports)', async () => {
    const list = await lintMemory((f) => ({
      'sample.mdx': edit(twoBareFences(f), 'First:\n\n', 'First:\n\n<!-- packet-lint-disable-next-line code-fence-lang -->\n'),
    }));
    expect(list.map(brief)).toEqual(['packets/mem/sample.mdx:15:2 PK217 warning mdx-syntax', 'packets/mem/sample.mdx:22:1 PK216 warning code-fence-lang']);
  });

  it('a directive naming no rule is reported, and disables nothing', async () => {
    const list = await lintMemory((f) => ({ 'sample.mdx': `${twoBareFences(f)}\n{/* packet-lint-disable code-fence-language */}\n` }));
    expect(list.map(brief)).toEqual([
      'packets/mem/sample.mdx:15:1 PK216 warning code-fence-lang',
      'packets/mem/sample.mdx:21:1 PK216 warning code-fence-lang',
      'packets/mem/sample.mdx:25:1 PK291 warning',
    ]);
  });
});

describe('lintPackets', () => {
  it('reports the project config problems once, then each packet', async () => {
    const a = memoryPacket((f) => ({ 'sample.mdx': edit(f['sample.mdx'], 'label: Sample solution', 'label: Solution') }), 'a');
    const b = memoryPacket(() => ({}), 'b');
    const config = { file: 'packet-kit.config.json', rules: { 'no-such-rule': 'off' as const, 'sample-label': 'warning' as const } };
    const list = await lintPackets([a.packet, b.packet], { config });
    expect(list.map(brief)).toEqual(['packet-kit.config.json:-:- PK290 error', 'packets/a/sample.mdx:2:8 PK215 warning sample-label']);
  });
});
