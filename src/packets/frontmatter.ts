/**
 * Split an MDX part file into its YAML frontmatter and its body, without evaluating anything.
 * Handles a byte-order mark and CRLF line endings; refuses every frontmatter kind but YAML.
 */

/** The result of splitting a part file. */
export type SplitResult =
  | {
      ok: true;
      /** The YAML text between the fences, line endings normalized to LF. */
      yaml: string;
      /** 1-based line of the first YAML line in the file. */
      yamlLine: number;
      /** The body after the closing fence, normalized to LF. */
      body: string;
      /** 1-based line of the first body line in the file. */
      bodyLine: number;
      /** The whole file, normalized (BOM removed, LF endings). */
      text: string;
    }
  | {
      ok: false;
      /** `missing`: no frontmatter; `not-yaml`: another kind (`---js`, `+++`); `unclosed`: no closing fence. */
      reason: 'missing' | 'not-yaml' | 'unclosed';
      /** The opening fence as written, for the message. */
      fence: string;
      /** The normalized text. */
      text: string;
    };

/** Remove a UTF-8 byte-order mark and turn CRLF or lone CR into LF. Columns and lines are unchanged. */
export function normalizeText(raw: string): string {
  return raw.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/** Split frontmatter from body. */
export function splitFrontmatter(raw: string): SplitResult {
  const text = normalizeText(raw);
  const firstEnd = text.indexOf('\n');
  const first = (firstEnd === -1 ? text : text.slice(0, firstEnd)).trimEnd();
  if (first !== '---') {
    if (/^(---|\+\+\+|;;;)/.test(first)) return { ok: false, reason: 'not-yaml', fence: first, text };
    return { ok: false, reason: 'missing', fence: first, text };
  }
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === '---') {
      return {
        ok: true,
        yaml: lines.slice(1, i).join('\n'),
        yamlLine: 2,
        body: lines.slice(i + 1).join('\n'),
        bodyLine: i + 2,
        text,
      };
    }
  }
  return { ok: false, reason: 'unclosed', fence: first, text };
}
