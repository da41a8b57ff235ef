export type { Migration } from '../../platform/sqliteSchema.js';
