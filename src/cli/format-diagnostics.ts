import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codeFrameColumns } from '@babel/code-frame';
import pc from 'picocolors';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { forJson, forTerminal } from '../errors/escape.ts';
import { renderDiagnostic } from '../errors/render.ts';
import { normalizeText } from '../packets/frontmatter.ts';

/** Version of the JSON diagnostics document. */
export const DIAGNOSTICS_SCHEMA_VERSION = 1;

/** Each diagnostic as {@link renderDiagnostic} writes it; with `frames`, a code frame of its line under it. */
export function formatDiagnosticsText(list: readonly Diagnostic[], options: { cwd: string; frames: boolean; color: boolean }): string {
  const paint = options.color ? pc : pc.createColors(false);
  const sourceCache = new Map<string, string | null>();
  let out = '';
  for (const d of list) {
    out += renderDiagnostic(d, { paint });
    // A frame of a secret would print the secret again.
    if (options.frames && d.line && !d.sensitive) {
      if (!sourceCache.has(d.file)) {
        try {
          sourceCache.set(d.file, normalizeText(readFileSync(path.resolve(options.cwd, d.file), 'utf8')));
        } catch {
          sourceCache.set(d.file, null);
        }
      }
      const source = sourceCache.get(d.file);
      if (source) {
        const frame = codeFrameColumns(source, { start: { line: d.line, column: d.column ?? 1 } }, { highlightCode: false, linesAbove: 1, linesBelow: 1 });
        // The file's own control characters (a NUL, an escape sequence) shown as escapes, as in the message above.
        out += forTerminal(frame, { lines: true }).replace(/^/gm, '  ') + '\n';
      }
    }
  }
  return out;
}

/** Count errors and warnings. */
export function countDiagnostics(list: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of list) d.severity === 'error' ? errors++ : warnings++;
  return { errors, warnings };
}

/** The JSON document of `--format json`. */
export function formatDiagnosticsJson(list: readonly Diagnostic[], packets: readonly string[]): string {
  return forJson({ schemaVersion: DIAGNOSTICS_SCHEMA_VERSION, packets: [...packets].sort(), summary: countDiagnostics(list), diagnostics: list });
}
