import type { FileCoverage } from '../../../core/src/contract/index.js';
import type { BadgeTone } from '../components/Badge.js';

/** A file's index state as a badge tone (Status, the Memory tree, the document header). */
export const COVERAGE_TONE: Record<FileCoverage['status'], BadgeTone> = { indexed: 'ok', skipped: 'warn', failed: 'error' };
