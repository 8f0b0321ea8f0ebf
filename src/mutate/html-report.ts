/**
 * `mutation-report.html`: one self-contained page. On top, the run in plain HTML (the packet, the
 * model, the counts and the score, then every mutant with its number, status, fault, why, and
 * its diff against the sample), readable with scripts off and printable; below, Stryker's
 * `<mutation-test-report-app>` web component over the same data in the standard schema, its
 * script inlined (nothing is fetched from a network, so the page works from a file and a zip).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createTwoFilesPatch } from 'diff';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { forHtml, inertJson } from '../errors/escape.ts';
import { describeSummary, type MutationReport } from './report.ts';

/** A model's, a server's or the packet's text in the page: on one line, as exactly its characters. */
const escape = (s: string) => forHtml(s);
/** A line of a diff in a `<pre>`: its tabs kept. */
const escapeCode = (s: string) => forHtml(s, { lines: true });

/** JSON safe inside a `<script>` element. */
export function scriptJson(value: unknown): string {
  return inertJson(JSON.stringify(value)).replace(/</g, '\\u003c');
}

/** The elements' script, as shipped in the package. */
export async function reportElementsScript(): Promise<string> {
  const require = createRequire(import.meta.url);
  const file = require.resolve('mutation-testing-elements/dist/mutation-test-elements.js');
  return (await readFile(file, 'utf8')).replace(/<\/script/gi, '<\\/script');
}

/** The diff of a mutant against the sample, without the file headers. */
export function mutantDiff(file: string, original: string, mutated: string): string {
  const patch = createTwoFilesPatch(file, file, original, mutated, 'sample', 'mutant', { context: 2 });
  return patch.split('\n').filter((l) => !/^(?:=+|Index: .*|--- .*|\+\+\+ .*)$/.test(l)).join('\n').trim();
}

function diffHtml(diff: string): string {
  return diff
    .split('\n')
    .map((l) => {
      const cls = l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('@@') ? 'hunk' : '';
      return cls ? `<span class="${cls}">${escapeCode(l)}</span>` : escapeCode(l);
    })
    .join('\n');
}

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1b1f24; background: #fff; }
main { max-width: 70rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
.meta { color: #555; margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid #ddd; }
.status { font-weight: 600; white-space: nowrap; }
.killed { color: #1a7f37; } .survived { color: #b3261e; } .crashed { color: #8a5a00; } .invalid, .duplicate, .unjudged { color: #555; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; font-size: 13px; margin: .25rem 0 0; }
pre .add { color: #1a7f37; } pre .del { color: #b3261e; } pre .hunk { color: #555; }
details summary { cursor: pointer; }
@media print { .app { display: none; } details { display: block; } }
`;

/** The page. `sources` are the sample's files as the model saw them; `elementsScript` the elements' script (see `reportElementsScript`). Pure. */
export function mutationReportHtml(report: MutationReport, schemaReport: MutationTestResult, sources: ReadonlyMap<string, string>, elementsScript: string): string {
  const rows = report.mutants.map((m) => {
    const original = sources.get(m.path);
    const diff = original !== undefined && m.code !== undefined ? mutantDiff(m.path, original, m.code) : '';
    const killers = m.killedBy?.length ? `<br>killed by: ${m.killedBy.map((t) => `<code>${escape(t)}</code>`).join(', ')}` : '';
    const notes = m.notes?.length ? `<br>${m.notes.map((n) => escape(n)).join('<br>')}` : '';
    const diffBlock = diff ? `<details${m.status === 'survived' ? ' open' : ''}><summary>diff against the sample</summary><pre>${diffHtml(diff)}</pre></details>` : '';
    return `<tr id="mutant-${m.id}"><td>#${m.id}</td><td class="status ${m.status}">${m.status}${m.duplicateOf ? ` of #${m.duplicateOf}` : ''}</td><td><code>${escape(m.path || '(none)')}</code></td><td>${escape(m.fault || '(no fault stated)')}<br><small>${escape(m.reason)}${killers}${notes}</small>${diffBlock}</td></tr>`;
  });
  const title = `Mutants of ${report.packet} ${report.version}`;
  const calls = report.calls.filter((c) => c.status !== 'ok').map((c) => `<li>call ${c.turn}: INCONCLUSIVE: ${escape(c.reason ?? '')}</li>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p class="meta">Reviewer material. Model <code>${escape(report.model)}</code> at ${escape(report.endpoint)}${report.scripted ? ' (the embedded scripted endpoint)' : ''}, ${escape(report.date)}, digest <code>${escape(report.digest.slice(0, 12))}</code>. The sample ran ${escape(report.baseline.tests)} before any mutant.</p>
<p id="summary"><strong>${escape(describeSummary(report.summary))}</strong>${report.verdict === 'INCONCLUSIVE' ? ` <strong>INCONCLUSIVE</strong>: ${escape(report.inconclusive?.reason ?? '')}` : ''}</p>
${calls.length ? `<ul>${calls.join('')}</ul>` : ''}
<table>
<thead><tr><th>#</th><th>status</th><th>file</th><th>fault, and why</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<p>killed: a test fails; survived: every test passes (a blind spot); crashed: the run errors before judging behaviour; invalid: not a mutant of the contract the tests use. The score is killed / (killed + survived).</p>
</main>
<div class="app"><mutation-test-report-app title-postfix="${escape(report.packet)}"></mutation-test-report-app></div>
<script>${elementsScript}</script>
<script>document.querySelector('mutation-test-report-app').report = ${scriptJson(schemaReport)};</script>
</body>
</html>
`;
}
