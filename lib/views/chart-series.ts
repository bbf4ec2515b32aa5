/**
 * Line colours and dash patterns for charts. Okabe–Ito colours (distinguishable with the
 * common colour-vision deficiencies), then dashes, so no two series look alike; every chart
 * also ships a data table, so nothing depends on telling lines apart by colour.
 */
const COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#8C6D31', '#7F7F7F'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

export interface SeriesStyle {
  colour: string;
  dash: string;
}

export function seriesStyle(i: number): SeriesStyle {
  return { colour: COLOURS[i % COLOURS.length] as string, dash: DASHES[Math.floor(i / COLOURS.length) % DASHES.length] as string };
}

export interface ChartSeries extends SeriesStyle {
  /** A plain data key (`s0`, `s1`…): ids with dots would read as nested paths in the chart library. */
  key: string;
  label: string;
}

export interface LineChartData {
  title: string;
  series: ChartSeries[];
  /** One row per x value: `x` label and each series' value (0–100) or null. */
  rows: ({ x: string } & Record<string, number | string | null>)[];
}
