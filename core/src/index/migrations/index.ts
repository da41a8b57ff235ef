import { migration0001 } from './0001-initial.js';
import type { Migration } from './types.js';

export const MIGRATIONS: readonly Migration[] = [migration0001];
