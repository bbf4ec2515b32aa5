/**
 * The heatmap's colours. A diverging red–yellow–blue scale (ColorBrewer RdYlBu, readable
 * with the common colour-vision deficiencies) from 0 (red) to 1 (blue), in 21 steps of
 * 0.05 so neighbouring cells that look alike are alike. Each colour carries its own text
 * colour, black or white, whichever contrasts more: for any background one of the two
 * reaches at least 4.58:1 (WCAG AA for normal text), and the number is always printed, so
 * colour is never the only cue. Colours are the same in light and dark mode.
 */

const STOPS: readonly [number, readonly [number, number, number]][] = [
  [0, [0xd7, 0x30, 0x27]],
  [0.25, [0xfc, 0x8d, 0x59]],
  [0.5, [0xfe, 0xe0, 0x90]],
  [0.75, [0x91, 0xbf, 0xdb]],
  [1, [0x45, 0x75, 0xb4]],
];

export const STEPS = 20;

export interface CellColour {
  background: string;
  color: string;
  /** 0…20 (score rounded to the nearest 0.05), null when there is no score. */
  bucket: number | null;
}

/** A cell with no score (every attempt failed, or nothing applied): neutral grey, dark text. */
export const NO_SCORE: CellColour = { background: '#d4d4d8', color: '#18181b', bucket: null };

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function parseHex(colour: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!m) throw new Error(`not a #rrggbb colour: ${colour}`);
  return [parseInt(m[1] as string, 16), parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(colour: string): number {
  const [r, g, b] = parseHex(colour);
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio between two #rrggbb colours (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function interpolate(t: number): [number, number, number] {
  for (let i = 1; i < STOPS.length; i++) {
    const [t1, c1] = STOPS[i] as (typeof STOPS)[number];
    const [t0, c0] = STOPS[i - 1] as (typeof STOPS)[number];
    if (t <= t1) {
      const f = (t - t0) / (t1 - t0);
      return [0, 1, 2].map((k) => (c0[k] as number) + f * ((c1[k] as number) - (c0[k] as number))) as [number, number, number];
    }
  }
  return [...(STOPS[STOPS.length - 1] as (typeof STOPS)[number])[1]] as [number, number, number];
}

const PALETTE: CellColour[] = Array.from({ length: STEPS + 1 }, (_v, bucket) => {
  const background = hex(interpolate(bucket / STEPS));
  const color = contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
  return { background, color, bucket };
});

export function scoreColour(score: number | null | undefined): CellColour {
  if (score === null || score === undefined || !Number.isFinite(score)) return NO_SCORE;
  const bucket = Math.round(Math.min(1, Math.max(0, score)) * STEPS);
  return PALETTE[bucket] as CellColour;
}

/** The legend under a heatmap: five labelled swatches, 0 to 100. */
export function heatmapLegend(): { label: string; background: string; color: string }[] {
  return [0, 0.25, 0.5, 0.75, 1].map((s) => ({ label: String(Math.round(s * 100)), ...scoreColour(s) }));
}
