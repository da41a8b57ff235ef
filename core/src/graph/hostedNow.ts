import { STOPWORDS } from '../platform/text/stopwords.js';
import type { PositionedMention } from './mentions.js';

/**
 * Where a service runs, said without a verb: "Jellyfin now on twiga", "Nextcloud still on
 * kifaru", "Kafka still on AWS". Only a name already typed as software or a piece of work may be
 * the subject ("Hope now on call", "Ruby still on meds" say nothing), and only a host or a
 * provider the object: a name typed so, or a plain host-shaped word.
 */

export interface HostedRelation {
  subject: number;
  predicate: 'runs_on';
  object: number;
}

const NOW_ON = /[ \t]+(?:is[ \t]+)?(?:now|still)[ \t]+(?:running[ \t]+|hosted[ \t]+)?on[ \t]+(?:the[ \t]+)?\x60?/y;
/** A plain word as a host's name: "twiga", "kifaru", "web-1" (lowercase, with a letter: "still on 15" is a version). */
const HOST_WORD = /(?=[\p{N}_.-]*\p{Ll})[\p{Ll}\p{N}][\p{Ll}\p{N}_.-]*[\p{Ll}\p{N}](?![\p{L}\p{N}])/uy;
/** What one is "now on" that is no host: a duty, a plan, a channel. */
const NOT_A_HOST = new Set(['call', 'leave', 'holiday', 'vacation', 'track', 'board', 'hold', 'it', 'top', 'time', 'schedule', 'plan', 'meds', 'site', 'prod', 'staging', 'main', 'master', 'rotation', 'duty', 'shift', 'standby', 'break']);
const SUBJECT_TYPES = new Set(['tool', 'project']);
const HOST_TYPES = new Set(['machine', 'organization']);

export function findHostedNow(body: string, mentions: PositionedMention[]): HostedRelation[] {
  if (!/\b(?:now|still) (?:running |hosted )?on\b/.test(body)) return [];
  const found: HostedRelation[] = [];
  const count = mentions.length;
  for (let i = 0; i < count; i++) {
    const s = mentions[i]!;
    if (s.start < 0 || !SUBJECT_TYPES.has(s.type) || s.certainty === 'tentative') continue;
    NOW_ON.lastIndex = s.end;
    const gap = NOW_ON.exec(body);
    if (!gap) continue;
    const at = s.end + gap[0].length;
    let object = mentions.findIndex((c) => c.start === at || c.start === at - 1);
    if (object >= 0 && !HOST_TYPES.has(mentions[object]!.type)) continue;
    if (object < 0) {
      HOST_WORD.lastIndex = at;
      const word = HOST_WORD.exec(body)?.[0];
      if (!word || STOPWORDS.has(word) || NOT_A_HOST.has(word)) continue;
      mentions.push({ type: 'machine', label: word, certainty: 'strong', start: at, end: at + word.length });
      object = mentions.length - 1;
    }
    if (object !== i) found.push({ subject: i, predicate: 'runs_on', object });
  }
  return found;
}
