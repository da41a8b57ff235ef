import type { Migration } from '../../index/migrations/types.js';
import { agentMigration0001 } from './0001-agents.js';
import { agentMigration0002 } from './0002-entry-edits.js';

export const AGENT_MIGRATIONS: readonly Migration[] = [agentMigration0001, agentMigration0002];
