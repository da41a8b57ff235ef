import type { SessionKind } from '../contract/index.js';
import type { JsonRecord } from './jsonFields.js';
import type { TranscriptSession } from './transcriptSession.js';
import type { TranscriptFormat } from './types.js';

/** One transcript format: how to read its lines into a session. */
export interface TranscriptParser {
  format: TranscriptFormat;
  /** Session id from the file name, used until (or unless) the content names one. */
  sessionIdFromPath(filePath: string): string;
  /** Session kind before the content says otherwise. */
  initialKind(filePath: string): SessionKind;
  /** The line's own timestamp, if it has one. */
  timestampOf(record: JsonRecord): string | null;
  /** Handles one parsed line; returns false when the line's type is unknown to this format. */
  handleLine(record: JsonRecord, session: TranscriptSession): boolean;
}
