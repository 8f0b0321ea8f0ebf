/**
 * The secret scanner: secretlint over texts, findings by place and kind of secret, never the
 * secret. The lint rule no-secrets runs it on a packet's files, the bundle on a candidate zip's,
 * the grading on a submission's.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import type { Place } from '../errors/diagnostic.ts';
import type { Finding } from './rule.ts';

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
