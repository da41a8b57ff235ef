/**
 * What kind of entry a line of notes is, decided by its wording alone (no model): a task or an
 * open question is work in progress, never long-term memory; a time-bounded fact is memory only
 * while it holds. Lines in other languages and scripts fall back to `fact`.
 */

export type EntryKind = 'fact' | 'preference' | 'decision' | 'procedure' | 'event' | 'task' | 'question' | 'time-bounded';

export interface EntryKindResult {
  kind: EntryKind;
  /** For `time-bounded`: the last local day (YYYY-MM-DD) it holds, or null when its end cannot be read. */
  validUntil: string | null;
  /** The wording that decided it, for the run record ("a checkbox", "ends with a question mark"). */
  cue: string;
}

const KINDS: readonly EntryKind[] = ['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded'];
const KIND_ANNOTATION = /<!--\s*kind:\s*([a-z-]+)\s*-->/i;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/;
const CHECKBOX = /^\[[ xX]\]\s*/;
const COMMENTS = /<!--[\s\S]*?-->/g;

const TASK_WORDS = /\b(?:todo|to-do|fixme|action item)\b[:\s]|\b(?:need to|needs to|have to|remember to|don['’]t forget to|must remember|waiting (?:on|for)|blocked on)\b/i;
/** Errands at the start of a line ("ask Dana…", "book flights…", "check whether…"): not the person's standing instructions. */
const TASK_START = /^(?:ask|remind|book|call|email|e-mail|schedule|follow up|ping|buy|renew|send|pick up|order|pay|cancel|submit|reserve|chase|reply to|file|set up a call|check (?:if|whether|with|that|on|why|how)|double-check|look into|find out|figure out|investigate|confirm|draft|prepare|request|arrange|organi[sz]e|invite|contact|message|nudge|loop in|sync with|get back to|write up|sort out|clean up|tell \p{Lu}\p{L}+|let \p{Lu}\p{L}+ know)\b/iu;
/** An action item handed to someone: "→ me: get quotes", "-> Dana: review", "AI: …", "next step: …", "@me". */
const ACTION_ITEM = /(?:→|->|=>|⇒)\s*(?:me|@?\p{Lu}[\p{L}-]+)\s*[:：]|^(?:ai|action|actions|action items?|next steps?|follow[- ]?ups?|owner|pending)\s*[:：]|(?:^|\s)@me\b/iu;
/** The same errand words in the other languages notes are written in (French, Portuguese, Spanish, German). */
const TASK_ABROAD = /(?<!\p{L})(?:à faire|a fazer|demander|vérifier|relancer|penser à|il faut|perguntar|verificar|preciso|precisamos|lembrar de|pedir|cobrar|falta (?:fazer|enviar|pedir)|hay que|tengo que|preguntar|pendiente|nachfragen|klären|muss noch)(?!\p{L})/iu;
const QUESTION_START = /^(?:open question|question|q)\s*[:：-]|^(?:why|should we|should i|how do we|how do i|what if|is it worth|do we|does anyone|not sure (?:if|whether|why))\b/i;
/**
 * A question asked without a question mark: an interrogative opening ("who owns the gateway",
 * "is the cert renewed", "pourquoi…", "será que…"). "How to…" and "When X, do Y" are not questions.
 */
const QUESTION_WORDING = /^(?:who|whom|whose|which|where|why|whether|what (?:is|are|was|were|do|does|did|about|happens|if)|how (?:much|many|long|often|come|do|does|did|is|are|should|would|can|could)|when (?:is|are|do|does|did|will|should|can)|(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|has|have) (?:we|i|you|they|it|he|she|there|the|this|that|our|my|\p{Lu}\p{L}+))\b|^(?:pourquoi|est-ce que|comment|quand|qui|quel(?:le)?s?|combien|por ?que|porquê|será que|como|quando|quem|qual|quanto|por qué|cuándo|cómo|warum|wieso|wann|wer)(?!\p{L})/iu;
const CHECK_LATER = /\b(?:need to check|to be checked|to be confirmed|tbd|tbc|unclear (?:why|whether|if|how)|no idea (?:why|whether|if|how)|wondering (?:if|whether|why|how)|not sure (?:if|whether|why|how)|open question|still unknown|no answer yet)\b/i;
/** A question first, then a note to self: "Does Oktav use Storybook? Ask Ravi." */
const LEADING_QUESTION = /^[^.!?]{3,}\?(?:\s|$)/;
const PREFERENCE_START = /^(?:always|never|prefer|avoid|don['’]t|do not|please|call me|stop)\b/i;
const FIRST_PERSON_PREFERENCE = /\b(?:i prefer|i like|i want|i['’]d rather|my preference|i always|i never)\b/i;
const DECISION = /\b(?:decided|decision|we agreed|agreed to|going with|settled on|chose|chosen)\b/i;
const PROCEDURE = /^(?:to [a-z]+[^:]{0,60}:|steps?:|how to\b|procedure:|runbook:)|\bfirst\b.*\bthen\b/i;
const EVENT_START = /^(?:met|meeting with|lunch with|dinner with|call with|had (?:a|an|the)|went to|attended|visited|gave (?:a|an|the)\b|\d{1,2}:\d{2}|kick-?off|(?:sprint |team )?retro|demo(?:ed)?|released|shipped|launched|held|first (?:planning|meeting|session|call|workshop)|incident on|(?:team )?offsite|stand-?up ran)\b/i;
/** A happening told in the past tense: "went well", "nothing decided", "ran 20 minutes over". */
const EVENT_PHRASE = /\b(?:went well|went badly|went fine|went live|nothing decided|ran \d+ minutes over|about \d+ people came|met (?:a|an|the|with)|(?:was |were )?(?:rolled out|promoted to production))\b/i;
/**
 * A diary line that opens with a past-tense verb and no subject ("Handed off the flow…",
 * "Watered the plant", "Tried the new place"): something that happened. Verbs that announce a
 * lasting change ("Moved staging to…", "Switched to…") and participles that describe a state
 * ("Based in…", "Limited to…") are not.
 */
const PAST_START = /^(?!(?:moved|switched|changed|migrated|renamed|replaced|decided|agreed|based|limited|required|supported|related|shared|signed|expected|automated|dedicated|encrypted|protected|managed|hosted|scheduled|pinned|reserved|allowed|deprecated|archived|nested|detailed|advanced|embed|hundred|named|called|located|owned|used|needed|planned|approved|preferred|locked|blocked|paid|licensed|registered)\b)(?:[a-z]{2,}[^e\s]ed|met|went|gave|had|held|ran|took|brought|got|made|saw|spent|came|wrote|spoke|sat|won|lost|caught|forgot|did)\b/i;

/** Month-name prefixes (accents removed) in English, French, Portuguese, Spanish and German, by month. */
const MONTH_PREFIXES: ReadonlyArray<readonly string[]> = [
  ['jan', 'ene'], ['feb', 'fev'], ['mar'], ['apr', 'avr', 'abr'], ['may', 'mai'], ['juin', 'jun'],
  ['juil', 'jul'], ['aug', 'aou', 'ago'], ['sep', 'set'], ['oct', 'out', 'okt'], ['nov'], ['dec', 'dez', 'dic'],
];const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?' +
  '|janv(?:ier)?|f[ée]vr?(?:ier)?|mars|avr(?:il)?|mai|juin|juil(?:let)?|ao[uû]t|sept(?:embre)?|oct(?:obre)?|nov(?:embre)?|d[ée]c(?:embre)?' +
  '|janeiro|fevereiro|mar[çc]o|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro' +
  '|enero|febrero|marzo|mayo|junio|julio|septiembre|octubre|noviembre|diciembre|januar|februar|m[äa]rz|juni|juli|oktober|dezember)\\.?';
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY = '(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)(?:day|nesday|urday|sday)?';
const DASH = '\\s*(?:-|–|—|to|through|thru|till|until|au|à|a|até|al|bis)\\s*';

/** "Nov 2–6", "Nov 2 - Nov 6", "2–6 Nov": a range whose end is the validity. */
const MONTH_DAY_RANGE = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})${DASH}(?:${MONTH}\\s+)?(\\d{1,2})\\b`, 'i');
const DAY_MONTH_RANGE = new RegExp(`\\b(\\d{1,2})${DASH}(\\d{1,2})\\s+(?:de\\s+)?${MONTH}`, 'i');
/** "2026-11-02 – 2026-11-06". */
const ISO_RANGE = /\b\d{4}-\d{2}-\d{2}\s*(?:-|–|—|to|through|until)\s*(\d{4})-(\d{2})-(\d{2})\b/i;
/** "until Oct 30", "expires Oct 30", "valid through 2026-11-06", "till Friday". */
const UNTIL = '(?:until|till|til|through|thru|expires?(?: on)?|expiring(?: on)?|expiry|valid until|ends?(?: on)?|back on|away until|runs? out(?: on)?|ran out(?: on)?|due on|deadline(?: is| on)?|jusqu.au|jusqu.à|até|hasta|bis)';
const UNTIL_MONTH_DAY = new RegExp(`\\b${UNTIL}\\s+(?:${WEEKDAY},?\\s+)?${MONTH}\\s+(\\d{1,2})\\b`, 'i');
const UNTIL_DAY_MONTH = new RegExp(`\\b${UNTIL}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+|de\\s+)?${MONTH}`, 'i');
const UNTIL_ISO = new RegExp(`\\b${UNTIL}\\s+(\\d{4})-(\\d{2})-(\\d{2})\\b`, 'i');
const UNTIL_WEEKDAY = new RegExp(`\\b${UNTIL}\\s+(?:next\\s+)?${WEEKDAY}\\b`, 'i');
const UNTIL_END_OF = new RegExp(`\\b${UNTIL}\\s+(?:the\\s+)?end of (?:the\\s+)?(week|month)\\b`, 'i');
const THIS_WEEK = /\b(this|next) week(?:end)?\b|\btomorrow\b|\btonight\b|(?<!\b(?:as of|from|since|starting|until|till) )\btoday\b/i;
/** Someone away for a while ("on holiday", "out of office", "de férias"): it ends, even when the note does not say when. */
const ABSENCE = /\b(?:on (?:holiday|vacation|leave|parental leave|sick leave|pto)|parental leave|out of (?:the )?office|ooo|off sick|(?:is|are) away|en vacances|en congé|de férias|de folga|de licença|im urlaub|de vacaciones)\b/i;

export function classifyEntry(raw: string, noteDay: string | null): EntryKindResult {
  const annotated = KIND_ANNOTATION.exec(raw)?.[1]?.toLowerCase() as EntryKind | undefined;
  const body = raw.replace(LIST_MARKER, '');
  const words = body.replace(CHECKBOX, '').replace(COMMENTS, ' ').replace(/\s+/g, ' ').trim();
  if (annotated && KINDS.includes(annotated)) {
    return { kind: annotated, validUntil: annotated === 'time-bounded' ? validityOf(words, noteDay) : null, cue: 'a kind annotation' };
  }
  if (CHECKBOX.test(body)) return { kind: 'task', validUntil: null, cue: 'a checkbox' };
  if (TASK_WORDS.test(words)) return { kind: 'task', validUntil: null, cue: `"${TASK_WORDS.exec(words)![0].trim()}"` };
  if (TASK_START.test(words)) return { kind: 'task', validUntil: null, cue: `starts with "${TASK_START.exec(words)![0]}"` };
  if (ACTION_ITEM.test(words)) return { kind: 'task', validUntil: null, cue: `an action item ("${ACTION_ITEM.exec(words)![0].trim()}")` };
  if (TASK_ABROAD.test(words)) return { kind: 'task', validUntil: null, cue: `"${TASK_ABROAD.exec(words)![0]}"` };
  if (/\?\s*(?:\)|["'”’])?\s*$/.test(words) || /\?\s+(?:need to|to check|tbd)\b/i.test(words) || LEADING_QUESTION.test(words)) return { kind: 'question', validUntil: null, cue: 'a question mark' };
  if (QUESTION_START.test(words)) return { kind: 'question', validUntil: null, cue: `starts with "${QUESTION_START.exec(words)![0].trim()}"` };
  if (QUESTION_WORDING.test(words)) return { kind: 'question', validUntil: null, cue: `asks "${QUESTION_WORDING.exec(words)![0].trim()}…"` };
  if (CHECK_LATER.test(words)) return { kind: 'question', validUntil: null, cue: `"${CHECK_LATER.exec(words)![0]}"` };
  const bounded = timeBound(words, noteDay);
  if (bounded) return { kind: 'time-bounded', validUntil: bounded.validUntil, cue: `"${bounded.cue}"` };
  if (PREFERENCE_START.test(words) || FIRST_PERSON_PREFERENCE.test(words)) return { kind: 'preference', validUntil: null, cue: 'a directive by the person' };
  if (EVENT_PHRASE.test(words)) return { kind: 'event', validUntil: null, cue: `"${EVENT_PHRASE.exec(words)![0]}"` };
  if (DECISION.test(words)) return { kind: 'decision', validUntil: null, cue: `"${DECISION.exec(words)![0]}"` };
  if (PROCEDURE.test(words)) return { kind: 'procedure', validUntil: null, cue: 'steps' };
  if (EVENT_START.test(words)) return { kind: 'event', validUntil: null, cue: `starts with "${EVENT_START.exec(words)![0]}"` };
  if (PAST_START.test(words)) return { kind: 'event', validUntil: null, cue: `starts with "${PAST_START.exec(words)![0]}"` };
  return { kind: 'fact', validUntil: null, cue: 'no other kind matched' };
}

/** A line that says when it stops holding; null when it says no such thing. */
function timeBound(words: string, noteDay: string | null): { validUntil: string | null; cue: string } | null {
  for (const pattern of [MONTH_DAY_RANGE, DAY_MONTH_RANGE, ISO_RANGE, UNTIL_MONTH_DAY, UNTIL_DAY_MONTH, UNTIL_ISO, UNTIL_WEEKDAY, UNTIL_END_OF, THIS_WEEK, ABSENCE]) {
    const match = pattern.exec(words);
    if (match) return { validUntil: validityOf(words, noteDay), cue: match[0].trim() };
  }
  return null;
}

/** The last day the line holds, read against the day its note was written (for the year and weekdays). */
export function validityOf(words: string, noteDay: string | null): string | null {
  const base = noteDay && /^\d{4}-\d{2}-\d{2}$/.test(noteDay) ? new Date(`${noteDay}T12:00:00Z`) : null;
  let m = MONTH_DAY_RANGE.exec(words);
  if (m) return dayOf(base, monthIndex(m[3] ?? m[1]!), Number(m[4]));
  m = DAY_MONTH_RANGE.exec(words);
  if (m) return dayOf(base, monthIndex(m[3]!), Number(m[2]));
  m = ISO_RANGE.exec(words);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = UNTIL_MONTH_DAY.exec(words);
  if (m) return dayOf(base, monthIndex(m[2]!), Number(m[3]));
  m = UNTIL_DAY_MONTH.exec(words);
  if (m) return dayOf(base, monthIndex(m[2]!), Number(m[1]));
  m = UNTIL_ISO.exec(words);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  if (!base) return null;
  m = UNTIL_WEEKDAY.exec(words);
  if (m) return iso(nextWeekday(base, weekdayIndex(m[1]!), /next\s/i.test(m[0])));
  m = UNTIL_END_OF.exec(words);
  if (m) return iso(m[1]!.toLowerCase() === 'week' ? nextWeekday(base, 0, false) : new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0, 12)));
  m = THIS_WEEK.exec(words);
  if (m) {
    const word = m[0].toLowerCase();
    if (word === 'tomorrow') return iso(addDays(base, 1));
    if (word === 'tonight' || word === 'today') return iso(base);
    const sunday = nextWeekday(base, 0, false);
    return iso(word.startsWith('next') ? addDays(sunday, 7) : sunday);
  }
  return null;
}

function monthIndex(name: string): number {
  const plain = name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return MONTH_PREFIXES.findIndex((prefixes) => prefixes.some((p) => plain.startsWith(p)));
}

function weekdayIndex(name: string): number {
  return WEEKDAYS.findIndex((d) => d.startsWith(name.slice(0, 3).toLowerCase()));
}

/** A month and day with no year: the one on or after the note's day, within the next ~10 months. */
function dayOf(base: Date | null, month: number, day: number): string | null {
  if (month < 0 || day < 1 || day > 31) return null;
  if (!base) return null;
  let year = base.getUTCFullYear();
  // "Jan 5" in a December note is next January; "Nov 6" in a Nov 2 note is this year.
  if (month < base.getUTCMonth() - 1) year++;
  return iso(new Date(Date.UTC(year, month, day, 12)));
}

/** The given weekday on or after `base` (strictly after a week on with `next`). */
function nextWeekday(base: Date, weekday: number, next: boolean): Date {
  const ahead = (weekday - base.getUTCDay() + 7) % 7;
  return addDays(base, ahead + (next ? 7 : 0));
}

function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
