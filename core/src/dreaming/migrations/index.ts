import type { Migration } from '../../index/migrations/types.js';
import { dreamMigration0001 } from './0001-dreaming.js';
import { dreamMigration0002 } from './0002-result-uses.js';
import { dreamMigration0003 } from './0003-conflicts.js';

export const DREAM_MIGRATIONS: readonly Migration[] = [dreamMigration0001, dreamMigration0002, dreamMigration0003];
