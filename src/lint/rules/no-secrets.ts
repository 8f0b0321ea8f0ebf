import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { LintErrors } from '../../errors/lint-catalog.ts';
import type { Place } from '../../errors/diagnostic.ts';
import { defineRule, type Finding } from '../rule.ts';

type SecretlintConfig = Parameters<typeof lintSource>[0]['options']['config'];

/** secretlint's recommended preset: AWS, GCP, GitHub, Slack, npm, private keys, basic auth in URLs, and more. */
const SECRETLINT_CONFIG: SecretlintConfig = {
  rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }],
};

/** A text to scan and the file its findings are reported at. */
export interface ScanText {
  text: string;
  /** The file, as shown in diagnostics. */
  file: string;
}

/**
 * Scan many texts in one secretlint pass (its cost per call is most of the scan on small files):
 * joined with blank lines between them, each finding mapped back to its text, line and column.
 * Returns each finding with the index of its text.
 */
export async function scanManyForSecrets(texts: readonly ScanText[]): Promise<(Finding<{ kind: string; scanner: string }> & { index: number })[]> {
  const starts: number[] = [];
  let line = 1;
  for (const { text } of texts) {
    starts.push(line);
    let newlines = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
    line += newlines + 2;
  }
  if (!texts.length) return [];
  const out: (Finding<{ kind: string; scanner: string }> & { index: number })[] = [];
  for (const finding of await scanForSecrets(texts.map((t) => t.text).join('\n\n'), texts[0]!.file)) {
    const at = finding.place.line ?? 1;
    let k = starts.length - 1;
    while (k > 0 && starts[k]! > at) k--;
    const place = { file: texts[k]!.file, line: at - starts[k]! + 1, ...(finding.place.column ? { column: finding.place.column } : {}) };
    out.push({ ...finding, place, index: k });
  }
  return out;
}

/** The 1-based line and column of a character offset. */
export function offsetToPlace(text: string, offset: number, file: string): Place {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { file, line, column: offset - lineStart + 1 };
}

let profilerOff = false;

/** Scan one text with secretlint. Only the rule and the kind of secret are kept: no secret is ever copied into a diagnostic. */
export async function scanForSecrets(text: string, file: string): Promise<Finding<{ kind: string; scanner: string }>[]> {
  if (!profilerOff) {
    // secretlint profiles every rule on every text unless told not to (a performance mark each,
    // kept until the process ends): as its README advises for library use, off. Half of a scan.
    secretLintProfiler.setEnabled(false);
    profilerOff = true;
  }
  const result = await lintSource({
    source: { content: text, filePath: file, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, maskSecrets: true, noPhysicFilePath: true },
  });
  return result.messages.map((m) => ({
    place: offsetToPlace(text, m.range[0], file),
    params: { kind: m.messageId, scanner: m.ruleId.replace('@secretlint/secretlint-rule-', '') },
    sensitive: true,
  }));
}

export const noSecrets = defineRule({
  id: 'no-secrets',
  defaultSeverity: 'error',
  entry: LintErrors.SecretInPacket,
  kinds: ['takehome', 'lab'],
  docs: {
    summary:
      'No key, token or credential in the part files or in any starter file. The scan is secretlint\'s recommended preset (a maintained rule set: cloud keys, GitHub, Slack and npm tokens, private keys, passwords in URLs, ...), not a home-made list. The diagnostic names the kind of secret, never the secret, and the terminal shows no code frame for them, so the secret is not printed again. Binary starter files are skipped. The secret trees (sample/, hidden/, mutants/, replies/) are left to the bundle\'s scan.',
    bad: 'const token = "ghp_" + 36 real-looking characters, in starter/src/client.py',
    good: 'token = os.environ["API_TOKEN"]  # read at run time, never written down',
  },
  async check(ctx) {
    const texts: ScanText[] = ctx.parts.map((name) => ({ text: ctx.part(name).text, file: ctx.part(name).file }));
    for (const file of await ctx.starterFiles()) if (file.text !== undefined) texts.push({ text: file.text, file: file.file });
    return (await scanManyForSecrets(texts)).map(({ index: _, ...finding }) => finding);
  },
});
