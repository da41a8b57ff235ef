import type { EngineEvent, SyncReport } from '../contract/index.js';
import type { SyncRun } from '../index/indexService.js';
import type { Logger } from '../platform/log/logger.js';
import { isCorruptionError } from '../platform/sqliteSchema.js';
import type { GraphService } from './graphService.js';

/**
 * The graph's step of every sync, once search is ready: re-extract the changed files and add
 * what happened to the report. The graph is derived and optional: a failed update never fails the sync.
 */
export async function updateGraphAfterSync(graphService: GraphService, report: SyncReport, run: SyncRun, emit: (event: EngineEvent) => void, logger: Logger): Promise<void> {
  try {
    // The chat model's prompts take seconds each: a sync waiting behind them (an edit) goes first.
    const graph = await graphService.update(run.force, run.shouldStop, run.syncWaiting);
    report.graph = { extracted: graph.extracted, removed: graph.removed, entities: graph.entities, claims: graph.claims, durationMs: graph.durationMs };
    report.notices.push(...graph.aliasNotices);
    const model = graph.model;
    if (model?.reason) report.notices.push(`Graph model extraction: ${model.reason}.`);
    const modelChanged = model !== null && model.entities + model.claims + model.removed > 0;
    if (graph.extracted + graph.removed > 0 || modelChanged) {
      emit({ type: 'graph-updated', extracted: graph.extracted, removed: graph.removed, entities: graph.entities, claims: graph.claims });
    }
  } catch (error) {
    // Damaged pages in the graph's tables are damage to the index: the sync moves it aside and rebuilds it.
    if (isCorruptionError(error)) throw error;
    report.notices.push(`The knowledge graph could not be updated: ${(error as Error).message}`);
    logger.warn('The knowledge graph could not be updated', { error });
  }
}
