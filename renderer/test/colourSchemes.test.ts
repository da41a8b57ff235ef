/// <reference types="node" />
// Node types only here: the test reads the stylesheet from disk (vitest empties `?raw` CSS imports).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const appCss = readFileSync(fileURLToPath(new URL('../src/styles/app.css', import.meta.url)), 'utf8');

// Reads the real stylesheet: the light palette is the first `:root` block, the dark one the `:root` inside
// `@media (prefers-color-scheme: dark)`. Every text/background pair the views use must reach WCAG AA (4.5:1).

function paletteOf(block: string): Map<string, string> {
  const palette = new Map<string, string>();
  for (const [, name = '', hex = ''] of block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6});/gi)) palette.set(name, hex.toLowerCase());
  return palette;
}

function rootBlockAfter(css: string, start: number): string {
  const open = css.indexOf(':root {', start);
  if (open < 0) throw new Error('app.css: no `:root {` block found after offset ' + start);
  return css.slice(open, css.indexOf('}', open));
}

const darkMediaAt = appCss.indexOf('@media (prefers-color-scheme: dark)');
const schemes = {
  light: paletteOf(rootBlockAfter(appCss, 0)),
  dark: paletteOf(rootBlockAfter(appCss, Math.max(darkMediaAt, 0))),
};

function relativeLuminance(hex: string): number {
  const linear = (offset: number): number => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(1) + 0.7152 * linear(3) + 0.0722 * linear(5);
}

function contrastRatio(a: string, b: string): number {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

// [foreground, background] as the stylesheets pair them (body text, muted captions, links, buttons, banners, marks).
const TEXT_PAIRS: Array<[string, string]> = [
  ['text', 'bg'],
  ['text', 'panel'],
  ['text', 'sidebar'],
  ['text', 'mark'],
  ['text', 'hit'],
  ['text', 'accent-soft'],
  ['snippet-text', 'panel'],
  ['muted', 'panel'],
  ['accent', 'panel'],
  ['accent-hover', 'accent-soft'],
  ['on-accent', 'accent'],
  ['on-accent', 'error'],
  ['error', 'panel'],
  ['error', 'error-soft'],
  ['warn-text', 'warn-soft'],
  ['ok', 'ok-soft'],
  ['text', 'subtle'],
  ['muted', 'subtle'],
  ['text', 'chip'],
  ['muted', 'hover'],
  ['violet', 'violet-soft'],
  ['violet', 'panel'],
  ['warn-text', 'panel'],
];

// Stylesheets that once hard-coded light colours (dark mode left them glaring): they take the palette now.
const PALETTE_ONLY = [
  'components/Badge.css',
  'components/DataTable.css',
  'components/ErrorNotice.css',
  'views/agents/CopyBox.css',
  'views/agents/agents.css',
  'views/dreams/CandidatesTable.css',
  'views/dreams/ScoreChart.css',
  'views/dreams/dreams.css',
  'views/graph/graph.css',
  'views/search/search.css',
];

describe('colour schemes', () => {
  it('finds the dark palette under prefers-color-scheme and it defines every colour the light one does', () => {
    expect(darkMediaAt).toBeGreaterThan(0);
    const lightNames = [...schemes.light.keys()].sort();
    expect(lightNames.length).toBeGreaterThan(10);
    expect([...schemes.dark.keys()].sort()).toEqual(lightNames);
  });

  it('leaves colours to the palette in the views and components (shadows aside)', () => {
    const hardCoded = PALETTE_ONLY.flatMap((file) => {
      const css = readFileSync(fileURLToPath(new URL(`../src/${file}`, import.meta.url)), 'utf8');
      return css
        .split('\n')
        .filter((line) => !/^\s*box-shadow:/.test(line) && /#[0-9a-f]{3,8}\b|rgba?\(/i.test(line))
        .map((line) => `${file}: ${line.trim()}`);
    });
    expect(hardCoded).toEqual([]);
  });

  for (const [scheme, palette] of Object.entries(schemes)) {
    it(`keeps text readable in the ${scheme} scheme (WCAG AA, 4.5:1)`, () => {
      const failures = TEXT_PAIRS.flatMap(([fg, bg]) => {
        const [fgHex, bgHex] = [palette.get(fg), palette.get(bg)];
        if (!fgHex || !bgHex) return [`--${fg} or --${bg} is missing`];
        const ratio = contrastRatio(fgHex, bgHex);
        return ratio >= 4.5 ? [] : [`--${fg} on --${bg}: ${ratio.toFixed(2)}:1`];
      });
      expect(failures).toEqual([]);
    });
  }
});
