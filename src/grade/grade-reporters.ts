import path from 'node:path';
import pc from 'picocolors';
import type { Diagnostic } from '../errors/diagnostic.ts';
import { forJson, forTerminal } from '../errors/escape.ts';
import { messagesTo } from '../runs/reporter.ts';
import type { GradeReporter } from './grade.ts';
import { nextStepWords, testsInWords } from '../judge/scorecard.ts';

/** Where the grade reporters write. */
export interface GradeStreams {
  out(text: string): void;
  err(text: string): void;
  /** Colour on a terminal. */
  color: boolean;
  /** Paths printed are relative to it. */
  cwd: string;
  /** The packets' diagnostics as the CLI prints them. */
  list(diagnostics: readonly Diagnostic[]): string;
}

/** A line per submission as it is graded (`--format text`), and where the summary is. */
export function terminalGradeReporter(s: GradeStreams): GradeReporter {
  const c = s.color ? pc : pc.createColors(false);
  return {
    ...messagesTo(s.err, s.list),
    onRunStart: (n) => s.out(`grading ${n} submission${n === 1 ? '' : 's'}\n`),
    onCheap: (name, findings) => {
      const errors = findings.filter((f) => f.severity === 'error');
      if (errors.length) s.out(`  ${forTerminal(name)}: before the sandbox, ${errors.map((f) => f.code).join(' ')}\n`);
    },
    onCard: (card, done, total) => {
      const v = card.verdict;
      const colour = v === 'PASS' ? c.green : v === 'REFUSED' || v === 'INCONCLUSIVE' || v === 'NOT-RUN' ? c.yellow : c.red;
      const codes = [...new Set(card.findings.map((f) => f.code))];
      s.out(`[${done}/${total}] ${forTerminal(card.submission.name)}: ${colour(v)}, tests ${testsInWords(card)}${codes.length ? `, ${codes.join(' ')}` : ''}; auto ${card.decision.autoPoints}, ${card.decision.state}\n`);
    },
    onRunEnd: (summary, outDir, kind) => {
      const at = (file: string) => forTerminal(path.relative(s.cwd, path.join(outDir, file)));
      s.out(`summary: ${at('summary.csv')}\n`);
      s.out(`next: ${nextStepWords(summary.packet.id, { summary: at('summary.json'), card: `one ${at('<name>/scorecard.json')}`, ...(kind ? { kind } : {}) })}\n`);
      const r = summary.roster;
      if (r?.unmatched.length) {
        s.out(`${c.yellow('roster:')} ${r.unmatched.length} of ${r.rows} row${r.rows === 1 ? '' : 's'} of ${forTerminal(r.file)} matched no submission of this batch (not handed in, or named otherwise):\n`);
        for (const u of r.unmatched) s.out(`  ${forTerminal(u.submission)}: sent ${u.variant} (line ${u.line})\n`);
      }
    },
  };
}

/** The summary as JSON on the output stream (`--format json`), nothing else there. */
export function jsonGradeReporter(s: GradeStreams): GradeReporter {
  return {
    ...messagesTo(s.err, s.list),
    onRunEnd: (summary) => s.out(forJson(summary)),
  };
}
