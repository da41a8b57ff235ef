/** Every torture family, in the order they run (`--only` takes these names). */
import type { Family } from '../harness.js';
import { killIndex } from './killIndex.js';
import { killDream } from './killDream.js';
import { killImport } from './killImport.js';
import { killSave, killStore } from './killWriter.js';
import { racingAppend } from './racingAppend.js';
import { fuzz } from './fuzz.js';
import { corruption } from './corruption.js';
import { abuse } from './abuse.js';
import { jsonPipe } from './jsonPipe.js';

export const families: Family[] = [killIndex, killDream, killImport, killSave, killStore, racingAppend, fuzz, corruption, abuse, jsonPipe];
