import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-vectors.js';
import { migration0003 } from './0003-provenance-and-sessions.js';
import { migration0004 } from './0004-graph.js';
import { migration0005 } from './0005-graph-cooccurrence.js';
import { migration0006 } from './0006-graph-model-extraction.js';
import { migration0007 } from './0007-vector-cells.js';
import { migration0008 } from './0008-tool-names-unchecked.js';
import { migration0009 } from './0009-entry-kinds.js';
import { migration0011 } from './0011-line-dates.js';
import { migration0012 } from './0012-smaller-index.js';
import { migration0013 } from './0013-graph-compact.js';
import { migration0014 } from './0014-unspaced-grams.js';
import { migration0015 } from './0015-graph-lone-pairs.js';
import { migration0017 } from './0017-chunk-source-runs.js';
import { migration0018 } from './0018-graph-type-votes.js';
import type { Migration } from './types.js';

export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007, migration0008, migration0009, migration0011, migration0012, migration0013, migration0014, migration0015, migration0017, migration0018];
