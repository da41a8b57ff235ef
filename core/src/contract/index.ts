/**
 * The contract: the one declaration of Reverie's records, operations, events and errors.
 * Every engine module may import it and it imports nothing of the engine. This file is the
 * only thing of core/ the renderer and Electron import: zod only (no Node, no DOM).
 */
export * from './tools.js';
export * from './vocabulary.js';
export * from './wikiLinks.js';
export * from './stopwords.js';
export * from './unspacedScripts.js';
export * from './records/indexRecords.js';
export * from './records/searchRecords.js';
export * from './records/settingsRecords.js';
export * from './records/statusRecords.js';
export * from './records/modelRecords.js';
export * from './records/provenanceRecords.js';
export * from './records/importRecords.js';
export * from './records/dreamRecords.js';
export * from './records/agentRecords.js';
export * from './records/graphRecords.js';
export * from './records/logRecords.js';
export * from './operations/index.js';
export * from './events.js';
export * from './errors.js';
export * from './client.js';
