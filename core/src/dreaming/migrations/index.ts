import type { Migration } from '../../index/migrations/types.js';
import { dreamMigration0001 } from './0001-dreaming.js';

export const DREAM_MIGRATIONS: readonly Migration[] = [dreamMigration0001];
