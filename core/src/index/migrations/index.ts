import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-vectors.js';
import type { Migration } from './types.js';

export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002];
