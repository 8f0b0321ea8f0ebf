import { forHtml, forMarkdown, forTerminal } from '../errors/escape.ts';
import type { BootstrapInterval } from './bootstrap.ts';
import { THRESHOLDS, type AgreementReport, type Split } from './agreement.ts';

/**
 * The agreement report as people read it: a terminal table, Markdown, and one self-contained
 * HTML page with an inline SVG chart. Everything from a sheet (names of reviewers and
 * submissions) is escaped for where it lands. Pure.
 */

const num = (v: number | null) => (v === null ? '—' : v.toFixed(2));
const ci = (i: { lower: number; upper: number } | null) => (i ? `[${i.lower.toFixed(2)}, ${i.upper.toFixed(2)}]` : '');
const pct = (v: number | null) => (v === null ? '—' : `${Math.round(v * 100)}%`);
const pctCi = (i: { lower: number; upper: number } | null) => (i ? `[${pct(i.lower)}, ${pct(i.upper)}]` : '');
const splitText = (s: Split) => `${s.submission} (${Object.entries(s.by).map(([r, v]) => `${r} ${v}`).join(', ')})`;

/** A row's state in a word or two. */
function rowState(row: AgreementReport['rows'][number]): string {
  if (row.vague) return 'TOO VAGUE';
  if (row.alpha !== null) return 'ok';
  return row.submissions > 0 && row.splits.length === 0 ? 'no variation' : 'no data';
}

/** The verdict lines: what is too vague and who is off the key. */
function findings(r: AgreementReport): string[] {
  const out: string[] = [];
  for (const row of r.rows.filter((x) => x.vague)) {
    const stat = row.kappa !== null && (row.alpha === null || row.kappa < row.alpha) ? `kappa ${num(row.kappa)}` : `alpha ${num(row.alpha)}`;
    out.push(`row "${row.id}" is too vague (${stat}, under ${THRESHOLDS.alpha}): the reviewers split on ${row.splits.map(splitText).join('; ') || 'no single submission'}`);
  }
  for (const s of r.decision.splits) out.push(`the reviewers reach different decisions on ${splitText(s)}`);
  if (r.totals.vague) out.push(`the totals are too vague (ICC(2,1) ${num(r.totals.icc)}, under ${THRESHOLDS.icc})`);
  for (const k of r.key?.reviewers ?? []) {
    if (!k.offKey) continue;
    const why = [
      ...k.decisionMisses.map((m) => `${m.submission}: ${m.got}, the key says ${m.expected}`),
      ...k.rowsOff.map((o) => `${o.submission} row ${o.row}: ${o.got}, the key says ${o.expected}`),
      ...(k.scored === 0 ? ['scored none of the key\'s submissions'] : []),
    ];
    out.push(`${k.name} is off the key: ${why.join('; ')}`);
  }
  return out;
}

/** The terminal report. */
export function agreementTerminal(r: AgreementReport): string {
  const t = (s: string) => forTerminal(s);
  const lines: string[] = [];
  lines.push(`agreement on ${t(r.packet.id)} ${t(r.packet.version)}: ${r.reviewers.length} reviewers (${r.reviewers.map((x) => t(x.name)).join(', ')}), ${r.submissions.length} submissions`);
  for (const x of r.reviewers) lines.push(`  ${t(x.name)}: ${x.sheets} sheet${x.sheets === 1 ? '' : 's'} (${x.blind} scored blind, ${x.overrides} automatic row${x.overrides === 1 ? '' : 's'} overridden)`);
  lines.push('');
  const header = ['row', 'alpha', '95% CI', ...(r.reviewers.length === 2 ? ['kappa', '95% CI'] : []), 'n', ''];
  const body = r.rows.map((row) => [
    t(row.id),
    num(row.alpha),
    ci(row.alphaInterval),
    ...(r.reviewers.length === 2 ? [num(row.kappa), ci(row.kappaInterval)] : []),
    String(row.submissions),
    rowState(row),
  ]);
  body.push(['totals ICC(2,1)', num(r.totals.icc), ci(r.totals.interval), ...(r.reviewers.length === 2 ? ['', ''] : []), String(r.totals.submissions), r.totals.vague ? 'TOO VAGUE' : r.totals.icc === null ? '—' : 'ok']);
  body.push(['decision alpha', num(r.decision.alpha), ci(r.decision.alphaInterval), ...(r.reviewers.length === 2 ? ['', ''] : []), String(r.decision.submissions), '']);
  body.push(['decision agree %', pct(r.decision.percent), pctCi(r.decision.percentInterval), ...(r.reviewers.length === 2 ? ['', ''] : []), String(r.decision.submissions), '']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  lines.push(fmt(header), ...body.map(fmt), '');
  lines.push(`combined decisions (${r.rule.rows} per row, veto: ${r.rule.veto}):`);
  for (const s of r.submissions) lines.push(`  ${t(s.label)}: ${s.combined ? `${s.combined.decision}, ${s.combined.total} of ${s.combined.max} (${t(s.combined.reason)}; ${s.combined.sheets} sheets)` : 'not decided (no sheet scores every row)'}`);
  if (r.key) {
    lines.push('', `against the calibration key (${r.key.submissions} submissions):`);
    for (const k of r.key.reviewers) lines.push(`  ${t(k.name)}: ${k.decisionsMatched} of ${k.scored} decisions match, ${k.rowsOff.length} rows off${k.offKey ? ' (OFF THE KEY)' : ' (calibrated)'}`);
  }
  const f = findings(r);
  lines.push('', f.length ? f.map((x) => `- ${t(x)}`).join('\n') : 'every row, the totals and the decisions agree well enough', '');
  lines.push(`method: rows by ${r.method.rows}; ${r.method.kappa}; ${r.method.totals}; intervals by ${r.method.intervals}.`);
  return `${lines.join('\n')}\n`;
}

/** The Markdown report. */
export function agreementMarkdown(r: AgreementReport): string {
  const m = (s: string) => forMarkdown(s);
  const two = r.reviewers.length === 2;
  const out: string[] = [];
  out.push(`# Reviewer agreement: ${m(r.packet.id)} ${m(r.packet.version)}`, '');
  out.push(`${r.reviewers.length} reviewers (${r.reviewers.map((x) => m(x.name)).join(', ')}), ${r.submissions.length} submissions. Rows under alpha${two ? ' or kappa' : ''} ${THRESHOLDS.alpha}, and totals under ICC ${THRESHOLDS.icc}, are named too vague.`, '');
  const f = findings(r);
  out.push('## Findings', '', ...(f.length ? f.map((x) => `- ${m(x)}`) : ['- Every row, the totals and the decisions agree well enough.']), '');
  out.push('## Rows', '', `| Row | Alpha (ordinal) | 95% CI |${two ? ' Kappa (quadratic) | 95% CI |' : ''} Submissions | |`, `|---|---|---|${two ? '---|---|' : ''}---|---|`);
  for (const row of r.rows) out.push(`| ${m(row.id)} | ${num(row.alpha)} | ${ci(row.alphaInterval)} |${two ? ` ${num(row.kappa)} | ${ci(row.kappaInterval)} |` : ''} ${row.submissions} | ${row.vague ? '**too vague**' : row.alpha === null ? m(row.note ?? '') : 'ok'} |`);
  out.push('', '## Totals and decisions', '');
  out.push(`- ICC(2,1) of the totals: ${num(r.totals.icc)} ${ci(r.totals.interval)} over ${r.totals.submissions} submissions${r.totals.note ? ` (${m(r.totals.note)})` : ''}${r.totals.vague ? ' — **too vague**' : ''}`);
  out.push(`- Decisions: ${pct(r.decision.percent)} of reviewer pairs agree ${pctCi(r.decision.percentInterval)}; alpha (nominal) ${num(r.decision.alpha)} ${ci(r.decision.alphaInterval)}`);
  out.push('', `## Combined decisions (${r.rule.rows} per row, veto: ${r.rule.veto})`, '', '| Submission | Decision | Total | Why |', '|---|---|---|---|');
  for (const s of r.submissions) out.push(`| ${m(s.label)} | ${s.combined ? s.combined.decision : 'not decided'} | ${s.combined ? `${s.combined.total} of ${s.combined.max}` : ''} | ${s.combined ? m(s.combined.reason) : 'no sheet scores every row'} |`);
  if (r.key) {
    out.push('', '## Against the calibration key', '', '| Reviewer | Decisions matched | Rows off | |', '|---|---|---|---|');
    for (const k of r.key.reviewers) out.push(`| ${m(k.name)} | ${k.decisionsMatched} of ${k.scored} | ${k.rowsOff.length} | ${k.offKey ? '**off the key**' : 'calibrated'} |`);
  }
  out.push('', '## Method', '', `- Rows: ${r.method.rows}; ${r.method.kappa}.`, `- Totals: ${r.method.totals}.`, `- Decisions: ${r.method.decision}.`, `- Intervals: ${r.method.intervals}.`, '');
  return out.join('\n');
}

/** The chart: one bar per row (alpha) with its interval, the totals' ICC, and the thresholds. */
function chartSvg(r: AgreementReport): string {
  const bars: { label: string; value: number | null; interval: BootstrapInterval | { lower: number; upper: number } | null; threshold: number; vague: boolean }[] = [
    ...r.rows.map((row) => ({ label: row.id, value: row.alpha, interval: row.alphaInterval, threshold: THRESHOLDS.alpha, vague: row.vague })),
    { label: 'totals ICC(2,1)', value: r.totals.icc, interval: r.totals.interval, threshold: THRESHOLDS.icc, vague: r.totals.vague },
    { label: 'decision alpha', value: r.decision.alpha, interval: r.decision.alphaInterval, threshold: THRESHOLDS.alpha, vague: r.decision.alpha !== null && r.decision.alpha < THRESHOLDS.alpha },
  ];
  const rowH = 28;
  const left = 180;
  const width = 360;
  const top = 24;
  const height = top + bars.length * rowH + 24;
  const x = (v: number) => left + ((Math.max(-1, Math.min(1, v)) + 1) / 2) * width;
  const parts: string[] = [];
  for (const tick of [-1, -0.5, 0, 0.5, 1]) parts.push(`<line x1="${x(tick)}" y1="${top - 6}" x2="${x(tick)}" y2="${height - 20}" class="grid"/><text x="${x(tick)}" y="${top - 10}" text-anchor="middle" class="tick">${tick}</text>`);
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 17}" text-anchor="end">${forHtml(b.label)}</text>`);
    if (b.value !== null) parts.push(`<rect x="${Math.min(x(0), x(b.value))}" y="${y + 6}" width="${Math.abs(x(b.value) - x(0))}" height="14" class="${b.vague ? 'bar vague' : 'bar'}"><title>${forHtml(b.label)}: ${b.value.toFixed(2)}</title></rect>`);
    else parts.push(`<text x="${x(0) + 4}" y="${y + 17}" class="tick">no value</text>`);
    if (b.interval) parts.push(`<line x1="${x(b.interval.lower)}" y1="${y + 13}" x2="${x(b.interval.upper)}" y2="${y + 13}" class="ci"/>`);
    parts.push(`<line x1="${x(b.threshold)}" y1="${y + 2}" x2="${x(b.threshold)}" y2="${y + 24}" class="threshold"/>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Agreement per row, with 95% intervals and the thresholds" viewBox="0 0 ${left + width + 20} ${height}" width="${left + width + 20}" height="${height}">${parts.join('')}</svg>`;
}

/** The HTML page: self-contained, no script, every outside text escaped. */
export function agreementHtml(r: AgreementReport): string {
  const h = (s: string) => forHtml(s);
  const two = r.reviewers.length === 2;
  const f = findings(r);
  const rows = r.rows
    .map((row) => `<tr${row.vague ? ' class="vague"' : ''}><th scope="row">${h(row.id)}</th><td>${num(row.alpha)}</td><td>${ci(row.alphaInterval)}</td>${two ? `<td>${num(row.kappa)}</td><td>${ci(row.kappaInterval)}</td>` : ''}<td>${row.submissions}</td><td>${row.vague ? 'too vague' : row.alpha === null ? h(row.note ?? '') : 'ok'}</td><td>${h(row.splits.map(splitText).join('; '))}</td></tr>`)
    .join('\n');
  const combined = r.submissions.map((s) => `<tr><th scope="row">${h(s.label)}</th><td>${s.combined ? s.combined.decision : 'not decided'}</td><td>${s.combined ? `${s.combined.total} of ${s.combined.max}` : ''}</td><td>${s.combined ? h(s.combined.reason) : 'no sheet scores every row'}</td></tr>`).join('\n');
  const key = r.key
    ? `<h2>Against the calibration key</h2><table><thead><tr><th>Reviewer</th><th>Decisions matched</th><th>Rows off</th><th></th></tr></thead><tbody>${r.key.reviewers.map((k) => `<tr${k.offKey ? ' class="vague"' : ''}><th scope="row">${h(k.name)}</th><td>${k.decisionsMatched} of ${k.scored}</td><td>${k.rowsOff.length}</td><td>${k.offKey ? 'off the key' : 'calibrated'}</td></tr>`).join('')}</tbody></table>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reviewer agreement: ${h(r.packet.id)} ${h(r.packet.version)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #c9ced6;padding:.3rem .6rem;text-align:left;vertical-align:top}
tr.vague{background:#fff1f0}td{white-space:nowrap}td:last-child{white-space:normal}svg text{font:12px system-ui,sans-serif;fill:#1b1f24}svg .tick{fill:#57606a}
svg .grid{stroke:#e1e4e8}svg .bar{fill:#3b6fb6}svg .bar.vague{fill:#c2410c}svg .ci{stroke:#1b1f24;stroke-width:2}svg .threshold{stroke:#c2410c;stroke-dasharray:3 2}
</style>
</head>
<body>
<h1>Reviewer agreement: ${h(r.packet.id)} ${h(r.packet.version)}</h1>
<p>${r.reviewers.length} reviewers (${r.reviewers.map((x) => h(x.name)).join(', ')}), ${r.submissions.length} submissions. Rows under alpha${two ? ' or kappa' : ''} ${THRESHOLDS.alpha}, and totals under ICC ${THRESHOLDS.icc}, are named too vague.</p>
<h2>Findings</h2>
<ul>${f.length ? f.map((x) => `<li>${h(x)}</li>`).join('') : '<li>Every row, the totals and the decisions agree well enough.</li>'}</ul>
<figure>${chartSvg(r)}<figcaption>Krippendorff's alpha per row, ICC(2,1) of the totals and alpha of the decisions, each with its 95% interval (the black line); the dashed line is the threshold.</figcaption></figure>
<h2>Rows</h2>
<table><thead><tr><th>Row</th><th>Alpha (ordinal)</th><th>95% CI</th>${two ? '<th>Kappa (quadratic)</th><th>95% CI</th>' : ''}<th>Submissions</th><th></th><th>Split on</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Totals and decisions</h2>
<p>ICC(2,1) of the totals: ${num(r.totals.icc)} ${ci(r.totals.interval)} over ${r.totals.submissions} submissions${r.totals.note ? ` (${h(r.totals.note)})` : ''}. Decisions: ${pct(r.decision.percent)} of reviewer pairs agree ${pctCi(r.decision.percentInterval)}; alpha (nominal) ${num(r.decision.alpha)} ${ci(r.decision.alphaInterval)}.</p>
<h2>Combined decisions (${h(r.rule.rows)} per row, veto: ${h(r.rule.veto)})</h2>
<table><thead><tr><th>Submission</th><th>Decision</th><th>Total</th><th>Why</th></tr></thead><tbody>
${combined}
</tbody></table>
${key}
<h2>Method</h2>
<ul><li>Rows: ${h(r.method.rows)}; ${h(r.method.kappa)}.</li><li>Totals: ${h(r.method.totals)}.</li><li>Decisions: ${h(r.method.decision)}.</li><li>Intervals: ${h(r.method.intervals)}.</li></ul>
</body>
</html>
`;
}
