import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRuleSettings, loadProjectLintConfig, parseLintConfig, resolveRule } from '../../../src/lint/config.ts';
import { lintRules } from '../../../src/lint/rules/index.ts';
import { brief, edit, lintMemory } from './helpers.ts';

const rule = (id: string) => lintRules.find((r) => r.id === id)!;
const longPrompt = (f: Record<string, string>) => ({ 'prompt.mdx': edit(f['prompt.mdx'], '## Goal\n', `${'word '.repeat(200)}\n\n## Goal\n`) });

describe('lint config', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('resolves default < project < packet; a bare severity keeps the options below', () => {
    const project = parseLintConfig('{ "lint": { "rules": { "prompt-length": ["warning", { "max": 100 }] } } }', 'packet-kit.config.json', 'project').config;
    const packet = parseLintConfig('{ "rules": { "prompt-length": "error" } }', 'packets/x/lint.json', 'packet').config;
    expect(resolveRule(rule('prompt-length'), [])).toEqual({ severity: 'error', options: { max: 300, countCode: true } });
    expect(resolveRule(rule('prompt-length'), [project])).toEqual({ severity: 'warning', options: { max: 100, countCode: true } });
    expect(resolveRule(rule('prompt-length'), [project, packet])).toEqual({ severity: 'error', options: { max: 100, countCode: true } });
  });

  it('project severities apply: off, warning, and options', async () => {
    const defaults = await lintMemory(longPrompt);
    expect(defaults.map((d) => `${d.code} ${d.severity} ${d.rule}`)).toEqual(['PK201 error prompt-length']);
    const warned = await lintMemory(longPrompt, { config: { rules: { 'prompt-length': 'warning' } } });
    expect(warned.map((d) => d.severity)).toEqual(['warning']);
    expect(await lintMemory(longPrompt, { config: { rules: { 'prompt-length': 'off' } } })).toEqual([]);
    expect(await lintMemory(longPrompt, { config: { rules: { 'prompt-length': ['error', { max: 400 }] } } })).toEqual([]);
  });

  it('a packet lint.json overrides the project', async () => {
    const withPacketFile = (f: Record<string, string>) => ({ ...longPrompt(f), 'lint.json': '{ "rules": { "prompt-length": "warning" } }\n' });
    const list = await lintMemory(withPacketFile, { config: { rules: { 'prompt-length': 'error' } } });
    expect(list.map((d) => `${d.code} ${d.severity}`)).toEqual(['PK201 warning']);
    const off = await lintMemory((f) => ({ ...longPrompt(f), 'lint.json': '{ "rules": { "prompt-length": "off" } }' }));
    expect(off).toEqual([]);
  });

  it('reports a bad packet lint.json at its place and keeps the defaults', async () => {
    const list = await lintMemory((f) => ({
      ...longPrompt(f),
      'lint.json': '{\n  "rules": {\n    "prompt-lenght": "off",\n    "prompt-length": ["warning", { "max": "many" }]\n  }\n}\n',
    }));
    expect(list.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      expect.stringMatching(/^packets\/mem\/lint\.json:3:5 PK290 error The lint configuration is not valid: there is no rule "prompt-lenght" \(rules: prompt-length, /),
      'packets/mem/lint.json:4:5 PK290 error The lint configuration is not valid: the options of "prompt-length": "max" is wrong: expected number, received string. The rule keeps its default setting.',
      expect.stringMatching(/^packets\/mem\/prompt\.mdx:\d+:\d+ PK201 warning prompt-length /),
    ]);
  });

  it('reports JSON errors and shape errors with positions', () => {
    const broken = parseLintConfig('{\n  "lint": { "rules": { "x": "error", } }\n}\n', 'packet-kit.config.json', 'project');
    expect(broken.diagnostics.map(brief)).toEqual([expect.stringMatching(/^packet-kit\.config\.json:2:\d+ PK290 error$/)]);
    const shape = parseLintConfig('{\n  "lint": {\n    "rules": { "prompt-length": "loud" },\n    "extra": 1\n  }\n}\n', 'packet-kit.config.json', 'project');
    expect(shape.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'packet-kit.config.json:3:16 PK290 error The lint configuration is not valid: "lint.rules.prompt-length" must be "error", "warning", "off" or ["error", { ...options }]. The rule keeps its default setting.',
      'packet-kit.config.json:2:3 PK290 error The lint configuration is not valid: "lint" has unknown field "extra". The rule keeps its default setting.',
    ]);
    // Other top-level sections belong to other parts of the kit.
    expect(parseLintConfig('{ "rehearse": { "jobs": 2 } }', 'packet-kit.config.json', 'project').diagnostics).toEqual([]);
  });

  it('checks rule ids and options against the rule list', () => {
    const { config } = parseLintConfig('{ "lint": { "rules": { "sample-label": ["error", { "strict": true }], "rubric-rows": ["error", { "max": 5 }] } } }', 'c.json', 'project');
    expect(checkRuleSettings(config, lintRules).map((d) => d.message)).toEqual([
      'The lint configuration is not valid: the rule "sample-label" takes no options. The rule keeps its default setting.',
    ]);
  });

  it('loads packet-kit.config.json from the project root, and refuses a missing --config file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pk-config-'));
    dirs.push(dir);
    expect(await loadProjectLintConfig(dir)).toEqual({ config: { rules: {} }, diagnostics: [] });
    await writeFile(path.join(dir, 'packet-kit.config.json'), '{ "lint": { "rules": { "code-fence-lang": "off" } } }');
    expect((await loadProjectLintConfig(dir)).config.rules).toEqual({ 'code-fence-lang': 'off' });
    const missing = await loadProjectLintConfig(dir, 'nope.json');
    expect(missing.diagnostics.map(brief)).toEqual(['nope.json:-:- PK290 error']);
  });
});
