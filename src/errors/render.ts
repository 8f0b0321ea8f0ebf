import { shownPath, type Diagnostic } from './diagnostic.ts';
import { forTerminal } from './escape.ts';

/** The colours a renderer may use; the default paints nothing. A terminal passes picocolors. */
export interface Paint {
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
}

const plain = (text: string) => text;
/** Control characters but the line break and the tab, written as escapes: a message may span lines, never move the cursor or clear a line. */
const inert = (text: string) => forTerminal(text, { lines: true });
const NO_PAINT: Paint = { bold: plain, red: plain, yellow: plain, dim: plain };

/** Options of {@link renderDiagnostic}. */
export interface RenderOptions {
  /**
   * Show the place (`file:line:col`). True for a problem in a file; false for a command's own
   * refusal, whose `file` names a flag, a variable or a folder the message already names.
   */
  place?: boolean;
  /** Colours, for a terminal. */
  paint?: Paint;
}

/**
 * The one way a diagnostic is written as text, by every command and every error path:
 *
 *     file:line:col CODE error|warning message (rule)
 *       hint: what to do
 *
 * or, without the place, `CODE message` (`CODE warning message` for a warning) and the hint. The
 * path's control characters are escaped (`\n`, `\u001b`), so a file name cannot break or forge
 * a line of output; so are the message's and the hint's but their line breaks and tabs (an
 * escape sequence in a value they quote cannot clear or rewrite the terminal). A hint of several
 * lines stays indented. Ends with a newline.
 */
export function renderDiagnostic(d: Diagnostic, options: RenderOptions = {}): string {
  const c = options.paint ?? NO_PAINT;
  const rule = d.rule ? ` ${c.dim(`(${d.rule})`)}` : '';
  const hint = `  ${c.dim('hint:')} ${inert(d.hint).replace(/\n/g, '\n  ')}\n`;
  const message = inert(d.message);
  if (options.place === false || !d.file) {
    return `${d.code}${d.severity === 'warning' ? ` ${c.yellow('warning')}` : ''} ${message}${rule}\n${hint}`;
  }
  const where = `${shownPath(d.file)}${d.line ? `:${d.line}:${d.column ?? 1}` : ''}`;
  const severity = d.severity === 'error' ? c.red('error') : c.yellow('warning');
  return `${c.bold(where)} ${d.code} ${severity} ${message}${rule}\n${hint}`;
}
