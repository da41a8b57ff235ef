/**
 * The importers' records are the contract's (core/src/contract/records/importRecords.ts);
 * these are the names the importers use for their parts.
 */
import type { DetectedImportSource, EngineEvent, ImportPlan, ImportReport } from '../contract/index.js';

export type { ImportPlan, ImportReport, ImportSourceSpec, ImportTool } from '../contract/index.js';

export type DetectedSource = DetectedImportSource;
export type DetectedCollection = DetectedSource['collections'][number];
export type DetectedFile = DetectedCollection['files'][number];
export type ImportPlanItem = ImportPlan['items'][number];
export type ImportItemStatus = ImportPlanItem['status'];
export type ImportPlanOptions = ImportPlan['options'];
export type ImportReportItem = ImportReport['items'][number];
export type ImportAction = ImportReportItem['action'];
export type ImportProgress = Omit<Extract<EngineEvent, { type: 'import-progress' }>, 'type'>;
