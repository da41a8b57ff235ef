import type { Migration } from '../../index/migrations/types.js';
import { agentMigration0001 } from './0001-agents.js';

export const AGENT_MIGRATIONS: readonly Migration[] = [agentMigration0001];
