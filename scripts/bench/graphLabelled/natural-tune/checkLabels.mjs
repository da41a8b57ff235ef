// Checks the hand-made labels of the natural-tune workspace against its notes:
// the JSON parses, every surface form occurs as a whole word, no surface form belongs to two
// entities, and every relation names known labels and cites an existing, non-empty line.
// Usage: node scripts/bench/graphLabelled/natural-tune/checkLabels.mjs
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const workspace = join(here, 'workspace');
const PREDICATES = ['owns', 'leads', 'works_on', 'member_of', 'located_in', 'runs_on'];
const TYPES = ['person', 'project', 'organization', 'place', 'machine', 'tool', 'concept'];
const DATE = /^2026-\d\d-\d\d$/;

function markdownFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const notes = new Map(markdownFiles(workspace).map((path) => [relative(workspace, path), readFileSync(path, 'utf8')]));
const allText = [...notes.values()].join('\n');
const errors = [];

function readJson(name) {
  try {
    return JSON.parse(readFileSync(join(here, name), 'utf8'));
  } catch (error) {
    throw new Error(`${name} does not parse: ${error.message}`);
  }
}

// A whole word: not preceded or followed by a letter or digit (unicode aware).
function occursAsWord(surface) {
  const escaped = surface.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(allText);
}

const { entities } = readJson('entities.json');
const labels = new Set();
const owner = new Map();
for (const entity of entities) {
  if (labels.has(entity.label)) errors.push(`entities.json: label "${entity.label}" appears twice`);
  labels.add(entity.label);
  if (!TYPES.includes(entity.type)) errors.push(`entities.json: "${entity.label}" has unknown type "${entity.type}"`);
  if (!entity.names.includes(entity.label)) errors.push(`entities.json: "${entity.label}" is not among its own names`);
  for (const surface of entity.names) {
    if (!occursAsWord(surface)) errors.push(`entities.json: "${surface}" (${entity.label}) never occurs as a whole word`);
    const previous = owner.get(surface);
    if (previous && previous !== entity.label) errors.push(`entities.json: "${surface}" given to "${previous}" and "${entity.label}"`);
    owner.set(surface, entity.label);
  }
}

const { predicates, relations } = readJson('relations.json');
if (JSON.stringify(predicates) !== JSON.stringify(PREDICATES)) errors.push('relations.json: predicates list differs from the brief');
const seen = new Set();
for (const [index, relation] of relations.entries()) {
  const where = `relations.json #${index} (${relation.subject} ${relation.predicate} ${relation.object})`;
  for (const end of ['subject', 'object']) if (!labels.has(relation[end])) errors.push(`${where}: ${end} is not an entity label`);
  if (!PREDICATES.includes(relation.predicate)) errors.push(`${where}: unknown predicate`);
  if (!DATE.test(relation.from)) errors.push(`${where}: from must be YYYY-MM-DD`);
  if (relation.until !== null && (!DATE.test(relation.until) || relation.until < relation.from)) errors.push(`${where}: bad until`);
  const key = `${relation.subject}|${relation.predicate}|${relation.object}`;
  if (seen.has(key)) errors.push(`${where}: duplicate row`);
  seen.add(key);
  const [file, line] = relation.evidence.split(':');
  const text = notes.get(file)?.split('\n')[Number(line) - 1];
  if (!text?.trim()) errors.push(`${where}: evidence ${relation.evidence} is not a non-empty line of a note`);
}

if (errors.length > 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
console.log(`ok: ${notes.size} notes, ${entities.length} entities, ${relations.length} relations`);
