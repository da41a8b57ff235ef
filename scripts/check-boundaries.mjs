#!/usr/bin/env node
// Fails when a layer imports what it must not (docs/ARCHITECTURE.md, "Layers"):
//  - inside core/src, each folder imports only folders of a lower rank (RANKS below): never
//    upward, never sideways within its rank;
//  - core/ never imports electron, react, react-dom or zustand, and uses no DOM globals;
//  - renderer/ and electron/ import nothing from core/ but the contract's entry file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lowest first. A folder of core/src may import only folders of an earlier rank. */
export const RANKS = [
  ['contract'],
  ['platform'],
  ['workspace', 'provenance', 'embed', 'models'],
  ['index'],
  ['search'],
  ['sessions', 'importers', 'dreaming', 'graph', 'agents', 'diagnostics'],
  ['engine'],
  ['host'],
  ['cli'],
];

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORE_SRC = path.join(root, 'core', 'src');
const CONTRACT_ENTRY = path.join(CORE_SRC, 'contract', 'index.ts');
const IMPORT = /(?:^|[^.\w])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[^.\w])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^.\w])import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/gm;
const DOM_GLOBALS = /\b(?:window|document|localStorage|sessionStorage|navigator)\s*\./;
const rankOf = new Map(RANKS.flatMap((folders, rank) => folders.map((folder) => [folder, rank])));

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) yield* sourceFiles(p);
    } else if (/\.(c|m)?tsx?$/.test(entry.name)) yield p;
  }
}

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]).filter(Boolean);
}

function resolveRelative(from, spec) {
  if (!spec.startsWith('.')) return null;
  const abs = path.resolve(path.dirname(from), spec);
  return abs.replace(/\.js$/, '.ts');
}

/** The top folder of core/src a file belongs to, or null outside it. */
function folderOf(file) {
  const inside = path.relative(CORE_SRC, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  const parts = inside.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

const violations = [];
const rel = (p) => path.relative(root, p).split(path.sep).join('/');

for (const file of sourceFiles(path.join(root, 'core'))) {
  const from = folderOf(file);
  if (from !== null && !rankOf.has(from)) violations.push(`${rel(file)}: folder core/src/${from} has no rank (add it to RANKS in scripts/check-boundaries.mjs)`);
  for (const spec of importsOf(file)) {
    if (/^(electron|react|react-dom|zustand)(\/|$)/.test(spec)) violations.push(`${rel(file)} imports "${spec}" (core/ must not depend on UI or Electron)`);
    const target = resolveRelative(file, spec);
    if (!target) continue;
    if (!target.startsWith(path.join(root, 'core') + path.sep)) {
      violations.push(`${rel(file)} imports ${rel(target)} (outside core/)`);
      continue;
    }
    const to = folderOf(target);
    if (from === null || to === null || from === to || !rankOf.has(from) || !rankOf.has(to)) continue;
    const [fromRank, toRank] = [rankOf.get(from), rankOf.get(to)];
    if (toRank > fromRank) violations.push(`${rel(file)} imports ${rel(target)}: ${from} (rank ${fromRank}) must not import ${to} (rank ${toRank}, higher)`);
    else if (toRank === fromRank) violations.push(`${rel(file)} imports ${rel(target)}: ${from} and ${to} share rank ${fromRank}; move what both need to a lower rank`);
  }
  const text = fs.readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
  if (DOM_GLOBALS.test(text)) violations.push(`${rel(file)} uses a DOM global (core/ runs under plain Node)`);
}

for (const layer of ['renderer', 'electron']) {
  for (const file of sourceFiles(path.join(root, layer))) {
    for (const spec of importsOf(file)) {
      const target = resolveRelative(file, spec);
      if (target && target.startsWith(path.join(root, 'core') + path.sep) && target !== CONTRACT_ENTRY) {
        violations.push(`${rel(file)} imports ${rel(target)} (${layer}/ may import only core/src/contract/index.ts from core/)`);
      }
    }
  }
}

if (violations.length > 0) {
  console.error(`Layer boundary check failed (${violations.length}):\n  ${violations.join('\n  ')}\nThe ranks and the reasons: docs/ARCHITECTURE.md.`);
  process.exit(1);
}
console.error(`Layer boundaries: ok (core/src in ${RANKS.length} ranks, renderer, electron)`);
