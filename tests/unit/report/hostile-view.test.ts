import { describe, expect, it } from 'vitest';
import { historyChartSvg } from '../../../src/report/charts.ts';
import { inertView } from '../../../src/report/html-build.ts';

/**
 * The HTML report's texts come from model names, servers and runs' output. The view handed to
 * the page holds no raw control character, and the history chart, written into the page as SVG
 * markup, holds no tag or control character of a model's name.
 */
const HOSTILE = '</title><script>alert(1)</script>\u001b[2J\r\u202e\u0000';
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('the HTML report with hostile text', () => {
  it('hands the page a view with every control character shown as an escape, lines kept', () => {
    const view = { title: HOSTILE, rows: [{ reason: `a\nb${HOSTILE}`, n: 3, ok: true, none: null }] };
    const inert = inertView(view);
    expect(JSON.stringify(inert)).not.toMatch(RAW);
    expect(inert.rows[0]!.reason.startsWith('a\nb</title>')).toBe(true);
    expect(inert.rows[0]).toMatchObject({ n: 3, ok: true, none: null });
    expect(inert.title).toBe('</title><script>alert(1)</script>\\u001b[2J\\r\\u202e\\u0000');
  });

  it('draws a history chart whose label and legend hold no tag or control character of a model\'s name', () => {
    const svg = historyChartSvg({
      packet: `p${HOSTILE}`,
      models: [`m${HOSTILE}`],
      points: [{ date: '2026-11-29T12:00:00.000Z', label: '11-29 12:00', status: 'fails-closed', durationMs: 100, version: '1.0.0', runs: { [`m${HOSTILE}`]: { verdict: 'PASS', tokens: 10, wallMs: 1000 } as never } }],
    });
    expect(svg).not.toMatch(RAW);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;/title&gt;&lt;script&gt;');
  });
});
