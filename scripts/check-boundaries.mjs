#!/usr/bin/env node
// Fails when a layer imports what it must not (see ARCHITECTURE.md, "Layers"):
//  - core/ never imports electron, react, react-dom or zustand, and uses no DOM globals;
//  - renderer/ imports nothing from core/ except the API contract;
//  - electron/ imports from core/ only the contract (types), everything else runs in the engine process.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ? path.resolve(process.argv[2]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONTRACT = path.join(root, 'core', 'src', 'contract', 'index.ts');
const IMPORT = /(?:^|[^.\w])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|(?:^|[^.\w])import\s*\(\s*['"]([^'"]+)['"]\s*\)|(?:^|[^.\w])import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;
const DOM_GLOBALS = /\b(?:window|document|localStorage|sessionStorage|navigator)\s*\./;

function* sourceFiles(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) yield* sourceFiles(p);
    } else if (/\.(c|m)?tsx?$/.test(entry.name)) yield p;
  }
}

function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]).filter(Boolean);
}

function resolveRelative(from, spec) {
  if (!spec.startsWith('.')) return null;
  const abs = path.resolve(path.dirname(from), spec);
  return abs.replace(/\.js$/, '.ts');
}

const violations = [];
const rel = (p) => path.relative(root, p);

for (const file of sourceFiles(path.join(root, 'core'))) {
  for (const spec of importsOf(file)) {
    if (/^(electron|react|react-dom|zustand)(\/|$)/.test(spec)) violations.push(`${rel(file)} imports "${spec}" (core/ must not depend on UI or Electron)`);
    const target = resolveRelative(file, spec);
    if (target && !target.startsWith(path.join(root, 'core') + path.sep)) violations.push(`${rel(file)} imports ${rel(target)} (outside core/)`);
  }
  const text = fs.readFileSync(file, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
  if (DOM_GLOBALS.test(text)) violations.push(`${rel(file)} uses a DOM global (core/ runs under plain Node)`);
}

for (const layer of ['renderer', 'electron']) {
  for (const file of sourceFiles(path.join(root, layer))) {
    for (const spec of importsOf(file)) {
      const target = resolveRelative(file, spec);
      if (target && target.startsWith(path.join(root, 'core') + path.sep) && target !== CONTRACT) {
        violations.push(`${rel(file)} imports ${rel(target)} (${layer}/ may import only core/src/contract/index.ts from core/)`);
      }
    }
  }
}

if (violations.length > 0) {
  console.error(`Layer boundary check failed (${violations.length}):\n  ${violations.join('\n  ')}`);
  process.exit(1);
}
console.error('Layer boundaries: ok (core, renderer, electron)');
