import type { DreamTheme } from '../../contract/index.js';
import { daysAgo, localDay } from '../../platform/localDay.js';
import type { GatheredEntry } from './gatheredEntry.js';

export const REM_LOOKBACK_DAYS = 7;
/** A theme recalled or written on at least this share of the window's days is a pattern. */
export const PATTERN_STRENGTH = 0.75;
/** The most a theme can add to a candidate's score: patterns nudge, they never promote alone. */
export const MAX_REM_BOOST = 0.1;
const MAX_THEMES_REPORTED = 20;

export interface RemPhaseResult {
  lookbackDays: number;
  themes: DreamTheme[];
  reflections: string[];
  boostByKey: Map<string, number>;
}

/** REM sleep: group candidates into themes by shared concept tags and boost the recurring ones. */
export function runRemPhase(entries: readonly GatheredEntry[], now: number, lookbackDays = REM_LOOKBACK_DAYS): RemPhaseResult {
  const windowDays = new Set<string>();
  for (let i = 0; i < lookbackDays; i++) windowDays.add(localDay(daysAgo(now, i)));
  const byTag = new Map<string, { days: Set<string>; keys: string[] }>();
  for (const entry of entries) {
    const days = [...entry.days].filter((d) => windowDays.has(d));
    if (days.length === 0) continue;
    for (const tag of entry.conceptTags) {
      let theme = byTag.get(tag);
      if (!theme) byTag.set(tag, (theme = { days: new Set(), keys: [] }));
      for (const d of days) theme.days.add(d);
      theme.keys.push(entry.key);
    }
  }
  const themes: DreamTheme[] = [];
  const boostByKey = new Map<string, number>();
  for (const [tag, { days, keys }] of byTag) {
    // A theme is something several entries share, or one entry that keeps coming back.
    if (keys.length < 2 && days.size < 2) continue;
    const strength = days.size / lookbackDays;
    const boosted = strength >= PATTERN_STRENGTH;
    themes.push({ tag, strength: round(strength), days: days.size, candidateKeys: keys, boosted });
    if (!boosted) continue;
    const boost = MAX_REM_BOOST * (0.5 + (0.5 * (strength - PATTERN_STRENGTH)) / (1 - PATTERN_STRENGTH));
    for (const key of keys) boostByKey.set(key, Math.min(MAX_REM_BOOST, Math.max(boostByKey.get(key) ?? 0, boost)));
  }
  themes.sort((a, b) => b.strength - a.strength || b.candidateKeys.length - a.candidateKeys.length || a.tag.localeCompare(b.tag));
  const reported = themes.slice(0, MAX_THEMES_REPORTED);
  const reflections = reported
    .filter((t) => t.boosted)
    .slice(0, 5)
    .map((t) => `“${t.tag}” came up on ${t.days} of the last ${lookbackDays} days (${t.candidateKeys.length} ${t.candidateKeys.length === 1 ? 'entry' : 'entries'}).`);
  return { lookbackDays, themes: reported, reflections, boostByKey };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
