import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agreementHtml, agreementMarkdown, agreementTerminal } from '../../agreement/render.ts';
import { runAgreement } from '../../agreement/read-sheets.ts';
import { diagnose } from '../../errors/catalog.ts';
import { GradeErrors } from '../../errors/grade-catalog.ts';
import { renderDiagnostic } from '../../errors/render.ts';
import { agreementSpec } from '../command-specs.ts';
import { helpText, parseCommand } from '../flags.ts';
import type { CliIo } from '../io.ts';

/** `packet agreement`: the sheets read (src/agreement/), the report printed and written where asked. */
export async function agreementCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommand(agreementSpec, args);
  if (values.help) {
    io.out(helpText(agreementSpec));
    return 0;
  }
  if (!positionals.length) {
    io.err(`packet agreement: name the scored sheets (files or folders) of two reviewers or more.\n\n${helpText(agreementSpec)}`);
    return 2;
  }
  const outcome = await runAgreement({ inputs: positionals, packets: values.packets, key: values.key, seed: values.seed, resamples: values.resamples, cwd: io.cwd });
  if (!outcome.ok) {
    io.err(outcome.diagnostics.map((d) => renderDiagnostic(d)).join(''));
    return 2;
  }
  const { report, skipped } = outcome;
  io.out(agreementTerminal(report) + (skipped ? `(${skipped === 1 ? '1 JSON file in the folders named is not a scored sheet and was' : `${skipped} JSON files in the folders named are not scored sheets and were`} left out)\n` : ''));
  const outputs = [
    [values.json, () => `${JSON.stringify(report, null, 2)}\n`],
    [values.markdown, () => agreementMarkdown(report)],
    [values.html, () => agreementHtml(report)],
  ] as const;
  // A report written over a sheet or the key would lose a reviewer's work: refuse before writing any.
  for (const [file] of outputs) {
    if (file && outcome.read.includes(path.resolve(io.cwd, file))) {
      io.err(renderDiagnostic(diagnose(GradeErrors.AgreementOutUnwritable, { file }, { reason: `${file} is a file this command read (a scored sheet or the key), and writing there would replace it` })));
      return 2;
    }
  }
  for (const [file, text] of outputs) {
    if (!file) continue;
    const at = path.resolve(io.cwd, file);
    const failed = await mkdir(path.dirname(at), { recursive: true })
      .then(() => writeFile(at, text()))
      .then(() => null, (err: Error) => err);
    if (failed) {
      io.err(renderDiagnostic(diagnose(GradeErrors.AgreementOutUnwritable, { file }, { reason: failed.message })));
      return 2;
    }
    const shown = path.relative(io.cwd, at);
    io.out(`wrote ${shown && !shown.startsWith('..') ? shown : at}\n`);
  }
  const vague = report.vague.rows.length > 0 || report.vague.totals || (report.key?.reviewers.some((k) => k.offKey) ?? false);
  return vague ? 1 : 0;
}
