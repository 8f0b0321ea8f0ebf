/**
 * History charts as SVG, drawn with Apache ECharts' server-side renderer (no browser, no DOM):
 * the page carries the SVG itself, so it reads without JavaScript and from file://. One chart
 * per packet: the verdict of each model per report, its tokens and its wall time; a packet no
 * model ran gets its offline status and rehearsal time instead.
 */
import { LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { forTerminal, forXml } from '../errors/escape.ts';
import type { PacketHistory } from './history.ts';

echarts.use([LineChart, ScatterChart, GridComponent, LegendComponent, TitleComponent, SVGRenderer]);

/** The chart's label in the SVG (an attribute and a title): XML text, on one line. */
const escapeXml = (text: string): string => forXml(text);

/** Verdicts bottom to top, worst first. */
const VERDICTS = ['INCONCLUSIVE', 'GAVE-UP', 'FALSE-GREEN', 'CAUGHT', 'PASS'];
const STATUSES = ['inconclusive', 'defect', 'fails-closed'];
/** One colour per model, the same in every panel (colour-blind-safe, Okabe-Ito). */
const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000'];
/** One marker per verdict, so the verdict panel reads in greyscale too. */
export const VERDICT_SYMBOLS: Record<string, string> = { PASS: 'circle', CAUGHT: 'triangle', 'FALSE-GREEN': 'diamond', 'GAVE-UP': 'rect', INCONCLUSIVE: 'emptyCircle' };

const TEXT = { color: '#1b1f24', fontFamily: 'system-ui, sans-serif', fontSize: 11 };

/** The SVG of one packet's history; `width` in CSS pixels (the SVG scales with its viewBox). */
export function historyChartSvg(h: PacketHistory, options: { width?: number } = {}): string {
  const width = options.width ?? 720;
  const labels = h.points.map((p) => p.label);
  const withModels = h.models.length > 0;
  const panels = withModels ? 3 : 2;
  const panelHeight = 92;
  const top = 40;
  const gap = 34;
  const height = top + panels * panelHeight + (panels - 1) * gap + 28;
  const grid = Array.from({ length: panels }, (_, i) => ({ left: 110, right: 24, top: top + i * (panelHeight + gap), height: panelHeight }));
  const xAxis = grid.map((_, i) => ({ type: 'category' as const, gridIndex: i, data: labels, boundaryGap: true, axisLabel: { ...TEXT, show: i === panels - 1, hideOverlap: true }, axisTick: { alignWithLabel: true } }));
  const valueAxis = (i: number, name: string) => ({ type: 'value' as const, gridIndex: i, name, nameLocation: 'middle' as const, nameGap: 62, nameTextStyle: TEXT, axisLabel: TEXT, splitNumber: 3, min: 0 });
  const categoryAxis = (i: number, data: string[], name: string) => ({ type: 'category' as const, gridIndex: i, data, name, nameLocation: 'middle' as const, nameGap: 96, nameTextStyle: TEXT, axisLabel: { ...TEXT, fontSize: 10 } });
  let yAxis: object[];
  let series: object[];
  let description: string;
  if (withModels) {
    yAxis = [categoryAxis(0, VERDICTS, ''), valueAxis(1, 'tokens'), valueAxis(2, 'wall time (s)')];
    series = h.models.flatMap((model, k) => {
      const color = PALETTE[k % PALETTE.length]!;
      const run = (i: number) => h.points[i]!.runs[model];
      const offset = (k - (h.models.length - 1) / 2) * 7;
      return [
        {
          type: 'scatter',
          name: model,
          xAxisIndex: 0,
          yAxisIndex: 0,
          color,
          symbolSize: 9,
          symbolOffset: [offset, 0],
          data: labels.flatMap((_, i) => (run(i) ? [{ value: [i, run(i)!.verdict], symbol: VERDICT_SYMBOLS[run(i)!.verdict] }] : [])),
        },
        { type: 'line', name: model, xAxisIndex: 1, yAxisIndex: 1, color, symbolSize: 5, connectNulls: false, data: labels.map((_, i) => run(i)?.tokens ?? null) },
        { type: 'line', name: model, xAxisIndex: 2, yAxisIndex: 2, color, symbolSize: 5, connectNulls: false, data: labels.map((_, i) => (run(i) ? Math.round(run(i)!.wallMs / 100) / 10 : null)) },
      ];
    });
    const last = h.points.at(-1);
    description = `History of ${h.packet} over ${h.points.length} report${h.points.length === 1 ? '' : 's'}: verdict, tokens and wall time of ${h.models.join(', ')}. Latest: ${h.models.map((m) => `${m} ${last?.runs[m]?.verdict ?? 'not run'}`).join('; ')}.`;
  } else {
    yAxis = [categoryAxis(0, STATUSES, ''), valueAxis(1, 'rehearsal (s)')];
    const color = PALETTE[0]!;
    series = [
      { type: 'scatter', name: 'offline checks', xAxisIndex: 0, yAxisIndex: 0, color, symbolSize: 9, data: h.points.flatMap((p, i) => (p.status ? [[i, p.status]] : [])) },
      { type: 'line', name: 'offline checks', xAxisIndex: 1, yAxisIndex: 1, color, symbolSize: 5, data: h.points.map((p) => (p.durationMs === null ? null : Math.round(p.durationMs / 100) / 10)) },
    ];
    description = `History of ${h.packet} over ${h.points.length} report${h.points.length === 1 ? '' : 's'}: the offline rehearsal's status and time. Latest: ${h.points.at(-1)?.status ?? 'none'}.`;
  }
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      textStyle: TEXT,
      legend: { top: 6, left: 110, itemGap: 28, textStyle: TEXT, data: withModels ? h.models : ['offline checks'], icon: 'roundRect' },
      grid,
      xAxis,
      yAxis,
      series,
    });
    // The renderer leaves labelling to the DOM; a page without scripts needs it in the markup.
    const label = escapeXml(description);
    // The chart's markup holds no control character of its own; a model's name in the legend may (echarts passes them through).
    return forTerminal(chart.renderToSVGString(), { lines: true }).replace(/^<svg /, `<svg role="img" aria-label="${label}" `).replace(/>/, `><title>${label}</title>`);
  } finally {
    chart.dispose();
  }
}
