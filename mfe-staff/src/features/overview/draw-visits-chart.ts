import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * uPlot and its stylesheet, in a chunk of their own (`visits-chart`): VisitsChart imports this
 * module only when «Огляд» shows a chart, so no other page of the console, nor any public page,
 * loads them.
 */

export interface VisitsChartData {
  /** Each point's start, in ms. */
  instants: number[];
  visitors: number[];
  pageViews: number[];
  leads: number[];
}

export interface VisitsChartText {
  visitors: string;
  pageViews: string;
  leads: string;
  /** A point's label on the time axis (its Kyiv hour or day), by its start in ms. */
  tick(instant: number): string;
  /** A count on a value axis. */
  count(value: number): string;
  /** What the chart says under the pointer: the point's values (null when it leaves the chart). */
  onPoint(index: number | null): void;
}

const HEIGHT = 260;
/** The least room, in CSS pixels, one label of the time axis takes. */
const TICK_SPACE = 64;
/** About what the value axes and paddings take of the width. */
const AXES_WIDTH = 110;
/** Whole steps only: counts have no halves. */
const COUNT_INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000];

/** A design token's value, read where the chart is drawn (canvas takes no CSS variables). */
function token(element: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

/** 0 to a round number above the highest value, or to 1 when there is nothing yet. */
const fromZero: uPlot.Scale.Range = (_self, _min, max) => uPlot.rangeNum(0, Math.max(max, 1), 0.1, true);

/**
 * Draws the visitors, page views and leads of a dashboard's series into `target`, as wide as it
 * is and redrawn as it resizes. Leads, far fewer, have their own axis on the right. Returns what
 * removes the chart.
 */
export function drawVisitsChart(target: HTMLElement, data: VisitsChartData, text: VisitsChartText): () => void {
  const seconds = data.instants.map((instant) => instant / 1000);
  let width = Math.max(target.clientWidth, 200);

  const font = `12px ${token(target, '--font-family', 'sans-serif')}`;
  const muted = token(target, '--color-text-muted', '#4a5068');
  const grid = token(target, '--color-border', '#d5dae8');
  const axis = { font, stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };

  /** Each point, fewer when they would crowd the axis. */
  const timeSplits = () => {
    const fit = Math.max(1, Math.floor((width - AXES_WIDTH) / TICK_SPACE));
    const step = Math.ceil(seconds.length / fit);
    return seconds.filter((_, index) => index % step === 0);
  };

  const chart = new uPlot(
    {
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { y: false, drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: fromZero }, leads: { range: fromZero } },
      series: [
        {},
        { label: text.visitors, stroke: token(target, '--color-brand', '#16307a'), width: 2.5, scale: 'y' },
        { label: text.pageViews, stroke: token(target, '--color-accent-strong', '#f2b600'), width: 2, dash: [8, 4], scale: 'y' },
        { label: text.leads, stroke: token(target, '--color-success', '#1e7b45'), width: 2, dash: [2, 3], scale: 'leads', points: { show: true, size: 6 } },
      ],
      axes: [
        { ...axis, splits: timeSplits, values: (_self, splits) => splits.map((split) => text.tick(split * 1000)) },
        { ...axis, scale: 'y', incrs: COUNT_INCREMENTS, values: (_self, splits) => splits.map(text.count) },
        { ...axis, scale: 'leads', side: 1, incrs: COUNT_INCREMENTS, grid: { show: false }, values: (_self, splits) => splits.map(text.count) },
      ],
      hooks: {
        setCursor: [(self) => text.onPoint(self.cursor.idx ?? null)],
      },
    },
    [seconds, data.visitors, data.pageViews, data.leads],
    target,
  );

  // The container's width follows the page's (a phone turned, a window resized).
  const observer = new ResizeObserver(([entry]) => {
    const next = Math.max(Math.floor(entry?.contentRect.width ?? width), 200);
    if (next === width) return;
    width = next;
    chart.setSize({ width, height: HEIGHT });
  });
  observer.observe(target);

  return () => {
    observer.disconnect();
    chart.destroy();
  };
}
