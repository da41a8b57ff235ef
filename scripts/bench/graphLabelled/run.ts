/**
 * The labelled graph benchmark: builds each theme's generated workspace (and a copy of the
 * demo workspace) through the product's engine and scores the graph against the labels.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MemoryService } from '../../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from '../engine.js';
import { log, round } from '../stats.js';
import { scoreGraph, type GraphScores } from './evaluate.js';
import { generateLabelledWorkspace, type GoldEntity, type GoldRelation } from './generate.js';
import { generateJournalWorkspace } from './generateJournal.js';
import { BLIND_THEME, HELD_OUT_THEME, TUNING_THEMES, type Theme } from './themes.js';

const DEMO = path.resolve(import.meta.dirname, '../../../resources/demo-workspace');
const DEMO_LABELS = path.resolve(import.meta.dirname, 'demo-entities.json');
/** The demo's typed relations (for the predicates listed there): the tuning set of the relation rules on natural notes. */
const DEMO_RELATIONS = path.resolve(import.meta.dirname, 'demo-relations.json');
/** Another writer's hand-labelled notes (natural/README.md): held out, so its mistakes are never printed. */
const NATURAL = path.resolve(import.meta.dirname, 'natural/workspace');
const NATURAL_LABELS = path.resolve(import.meta.dirname, 'natural/entities.json');
/** Its typed relations, for the predicates listed there only. */
const NATURAL_RELATIONS = path.resolve(import.meta.dirname, 'natural/relations.json');
/** A third writer's hand-labelled notes (natural-tune/README.md): a tuning set, so its mistakes are printed. */
const NATURAL_TUNE = path.resolve(import.meta.dirname, 'natural-tune');

/** Builds the graph of a workspace written from `files` and scores it. */
async function buildAndScore(
  label: string,
  files: Map<string, string>,
  gold: { entities: GoldEntity[]; relations: GoldRelation[]; headings: string[]; predicates?: readonly string[] },
  options: { withholdMistakes?: boolean } = {},
): Promise<GraphScores> {
  const ws = makeTempWorkspace(`graph-labelled`);
  try {
    for (const [rel, text] of files) {
      fs.mkdirSync(path.dirname(path.join(ws.workspace, rel)), { recursive: true });
      fs.writeFileSync(path.join(ws.workspace, rel), text);
    }
    const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
    let top: number[];
    try {
      await service.invoke('index.sync', { force: false });
      const overview = await service.invoke('graph.overview', { limit: 40 });
      top = overview.entities.map((e) => Number(e.id.replace(/^entity:/, '')));
    } finally {
      await service.close();
    }
    const db = new Database(path.join(ws.dataDir, 'index', fs.readdirSync(path.join(ws.dataDir, 'index')).find((f) => f.endsWith('.sqlite'))!), { readonly: true });
    try {
      const scores = scoreGraph(db, top, gold);
      report(label, scores, options.withholdMistakes === true);
      return scores;
    } finally {
      db.close();
    }
  } finally {
    removeTempWorkspace(ws);
  }
}

/** Stands for a held-out set that was not built (REVERIE_BENCH_TUNING_ONLY=1): its figures print as null. */
const NOT_READ: GraphScores = {
  top40_precision: 0,
  top40_size: 0,
  top40_wrong: [],
  entity_recall: 0,
  type_accuracy: 0,
  wrong_types: [],
  relation_precision: 0,
  relation_recall: 0,
  relations_extracted: 0,
  wrong_relations: [],
  missed_relations: [],
  validity_accuracy: 0,
  superseded: 0,
  current_validity_accuracy: 0,
  furniture_entities: [],
};

function pct(x: number): string {
  return `${round(x * 100, 1)} %`;
}

function report(label: string, s: GraphScores, withholdMistakes: boolean): void {
  log(
    `graph labelled [${label}]: top-40 precision ${pct(s.top40_precision)} (of ${s.top40_size}), entity recall ${pct(s.entity_recall)}, type accuracy ${pct(s.type_accuracy)}, ` +
      `relation P ${pct(s.relation_precision)} R ${pct(s.relation_recall)} (${s.relations_extracted} typed), validity ${pct(s.validity_accuracy)} of ${s.superseded} superseded ` +
      `(current ${pct(s.current_validity_accuracy)}), furniture entities ${s.furniture_entities.length}`,
  );
  if (process.env.REVERIE_BENCH_VERBOSE && !withholdMistakes) {
    log(`  top-40 wrong: ${s.top40_wrong.join('; ')}`);
    log(`  wrong types: ${s.wrong_types.join('; ')}`);
    log(`  wrong relations: ${s.wrong_relations.slice(0, 40).join('; ')}`);
    log(`  missed relations: ${s.missed_relations.slice(0, 40).join('; ')}`);
    log(`  furniture: ${s.furniture_entities.slice(0, 40).join('; ')}`);
  }
}

function readDemo(dir: string, rel = ''): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const child = path.join(rel, name);
    if (fs.statSync(path.join(dir, child)).isDirectory()) for (const [k, v] of readDemo(dir, child)) files.set(k, v);
    else if (name.endsWith('.md')) files.set(child, fs.readFileSync(path.join(dir, child), 'utf8'));
  }
  return files;
}

export interface LabelledGraphFigures {
  graph_top40_precision_tuning: number;
  graph_top40_precision_heldout: number;
  graph_entity_recall_tuning: number;
  graph_entity_recall_heldout: number;
  graph_type_accuracy_tuning: number;
  graph_type_accuracy_heldout: number;
  graph_relation_precision_tuning: number;
  graph_relation_precision_heldout: number;
  graph_relation_recall_tuning: number;
  graph_relation_recall_heldout: number;
  graph_validity_tuning: number;
  graph_validity_heldout: number;
  /** The blind theme: another writer's wording, never tuned on. */
  graph_top40_precision_blind: number;
  graph_entity_recall_blind: number;
  graph_type_accuracy_blind: number;
  graph_relation_precision_blind: number;
  graph_relation_recall_blind: number;
  graph_validity_blind: number;
  /** Dates, weekdays, headings … among the generated themes' entities (the held-out and blind themes too, unless not read). */
  graph_furniture_entities: number;
  graph_furniture_entities_demo: number;
  graph_furniture_entities_natural_tune: number;
  graph_furniture_entities_natural: number;
  graph_top40_precision_demo: number;
  graph_entity_recall_demo: number;
  graph_type_accuracy_demo: number;
  graph_relation_precision_demo: number;
  graph_relation_recall_demo: number;
  /** Tuning: natural notes by a third writer (entities, types and relations). */
  graph_top40_precision_natural_tune: number;
  graph_entity_recall_natural_tune: number;
  graph_type_accuracy_natural_tune: number;
  graph_relation_precision_natural_tune: number;
  graph_relation_recall_natural_tune: number;
  graph_validity_natural_tune: number;
  /** Held out: natural notes by another writer (entities and types only). */
  graph_top40_precision_natural: number;
  graph_entity_recall_natural: number;
  graph_type_accuracy_natural: number;
  graph_relation_precision_natural: number;
  graph_relation_recall_natural: number;
  graph_validity_natural: number;
}

/** Means over the tuning themes; the held-out theme (tuning templates, new names), the blind theme (new writer) and the natural notes (held out) alone; the demo workspace. */
export async function runLabelledGraphBench(): Promise<LabelledGraphFigures> {
  const score = (theme: Theme, generate = generateLabelledWorkspace) => {
    const w = generate(theme);
    log(`graph labelled: theme ${theme.name}, ${w.files.size} notes, ${w.entities.length} entities, ${w.relations.length} relations (${w.relations.filter((r) => r.until).length} superseded)`);
    // The blind theme's mistakes are never printed: reading them would make it a tuning theme.
    return buildAndScore(theme.name, w.files, w, { withholdMistakes: theme === BLIND_THEME });
  };
  const tuning: GraphScores[] = [];
  for (const theme of TUNING_THEMES) tuning.push(await score(theme));
  // REVERIE_BENCH_TUNING_ONLY=1: the held-out sets (research-lab, the blind theme, the natural notes) are not built, so
  // their figures are not seen while tuning; their fields print as null. Read them once, at the end, without it.
  const tuningOnly = process.env.REVERIE_BENCH_TUNING_ONLY === '1';
  const held = tuningOnly ? NOT_READ : await score(HELD_OUT_THEME);
  const blind = tuningOnly ? NOT_READ : await score(BLIND_THEME, generateJournalWorkspace);
  const demoGold = JSON.parse(fs.readFileSync(DEMO_LABELS, 'utf8')) as { entities: GoldEntity[] };
  const demoRelations = JSON.parse(fs.readFileSync(DEMO_RELATIONS, 'utf8')) as { predicates: string[]; relations: GoldRelation[] };
  const demo = await buildAndScore('demo workspace', readDemo(DEMO), {
    entities: demoGold.entities,
    relations: demoRelations.relations,
    predicates: demoRelations.predicates,
    headings: [],
  });
  const tuneGold = JSON.parse(fs.readFileSync(path.join(NATURAL_TUNE, 'entities.json'), 'utf8')) as { entities: GoldEntity[] };
  const tuneRelations = JSON.parse(fs.readFileSync(path.join(NATURAL_TUNE, 'relations.json'), 'utf8')) as { predicates: string[]; relations: GoldRelation[] };
  const naturalTune = await buildAndScore('natural notes (tuning)', readDemo(path.join(NATURAL_TUNE, 'workspace')), {
    entities: tuneGold.entities,
    relations: tuneRelations.relations,
    predicates: tuneRelations.predicates,
    headings: [],
  });
  const naturalGold = JSON.parse(fs.readFileSync(NATURAL_LABELS, 'utf8')) as { entities: GoldEntity[] };
  const naturalRelations = JSON.parse(fs.readFileSync(NATURAL_RELATIONS, 'utf8')) as { predicates: string[]; relations: GoldRelation[] };
  const natural = tuningOnly
    ? NOT_READ
    : await buildAndScore(
        'natural notes (held out)',
        readDemo(NATURAL),
        { entities: naturalGold.entities, relations: naturalRelations.relations, predicates: naturalRelations.predicates, headings: [] },
        { withholdMistakes: true },
      );
  const mean = (pick: (s: GraphScores) => number) => round((tuning.reduce((a, s) => a + pick(s), 0) / tuning.length) * 100, 1);
  const of = (s: GraphScores, pick: (s: GraphScores) => number) => (s === NOT_READ ? (null as unknown as number) : round(pick(s) * 100, 1));
  return {
    graph_top40_precision_tuning: mean((s) => s.top40_precision),
    graph_top40_precision_heldout: of(held, (s) => s.top40_precision),
    graph_entity_recall_tuning: mean((s) => s.entity_recall),
    graph_entity_recall_heldout: of(held, (s) => s.entity_recall),
    graph_type_accuracy_tuning: mean((s) => s.type_accuracy),
    graph_type_accuracy_heldout: of(held, (s) => s.type_accuracy),
    graph_relation_precision_tuning: mean((s) => s.relation_precision),
    graph_relation_precision_heldout: of(held, (s) => s.relation_precision),
    graph_relation_recall_tuning: mean((s) => s.relation_recall),
    graph_relation_recall_heldout: of(held, (s) => s.relation_recall),
    graph_validity_tuning: mean((s) => s.validity_accuracy),
    graph_validity_heldout: of(held, (s) => s.validity_accuracy),
    graph_top40_precision_blind: of(blind, (s) => s.top40_precision),
    graph_entity_recall_blind: of(blind, (s) => s.entity_recall),
    graph_type_accuracy_blind: of(blind, (s) => s.type_accuracy),
    graph_relation_precision_blind: of(blind, (s) => s.relation_precision),
    graph_relation_recall_blind: of(blind, (s) => s.relation_recall),
    graph_validity_blind: of(blind, (s) => s.validity_accuracy),
    graph_furniture_entities: [...tuning, held, blind].reduce((a, s) => a + s.furniture_entities.length, 0),
    graph_furniture_entities_demo: demo.furniture_entities.length,
    graph_furniture_entities_natural_tune: naturalTune.furniture_entities.length,
    graph_furniture_entities_natural: natural === NOT_READ ? (null as unknown as number) : natural.furniture_entities.length,
    graph_top40_precision_demo: of(demo, (s) => s.top40_precision),
    graph_entity_recall_demo: of(demo, (s) => s.entity_recall),
    graph_type_accuracy_demo: of(demo, (s) => s.type_accuracy),
    graph_relation_precision_demo: of(demo, (s) => s.relation_precision),
    graph_relation_recall_demo: of(demo, (s) => s.relation_recall),
    graph_top40_precision_natural_tune: of(naturalTune, (s) => s.top40_precision),
    graph_entity_recall_natural_tune: of(naturalTune, (s) => s.entity_recall),
    graph_type_accuracy_natural_tune: of(naturalTune, (s) => s.type_accuracy),
    graph_relation_precision_natural_tune: of(naturalTune, (s) => s.relation_precision),
    graph_relation_recall_natural_tune: of(naturalTune, (s) => s.relation_recall),
    graph_validity_natural_tune: of(naturalTune, (s) => s.validity_accuracy),
    graph_top40_precision_natural: of(natural, (s) => s.top40_precision),
    graph_entity_recall_natural: of(natural, (s) => s.entity_recall),
    graph_type_accuracy_natural: of(natural, (s) => s.type_accuracy),
    graph_relation_precision_natural: of(natural, (s) => s.relation_precision),
    graph_relation_recall_natural: of(natural, (s) => s.relation_recall),
    graph_validity_natural: of(natural, (s) => s.validity_accuracy),
  };
}

// Run alone: `npx tsx scripts/bench/graphLabelled/run.ts` prints the labelled figures as one JSON line (REVERIE_BENCH_VERBOSE=1: what was wrong;
// REVERIE_BENCH_TUNING_ONLY=1: the tuning sets only, held-out fields null — use it while tuning).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  runLabelledGraphBench().then((figures) => console.log(JSON.stringify(figures)));
}
