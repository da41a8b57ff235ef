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

import { timeBound, validityOf } from './entryValidity.js';
import { CHECKBOX, entryWords } from './entryWords.js';
import { imperativeKindOf } from './imperativeLines.js';
import { overruleByScorer } from './kindScorer.js';

const KINDS: readonly EntryKind[] = ['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded'];
const KIND_ANNOTATION = /<!--\s*kind:\s*([a-z-]+)\s*-->/i;

const TASK_WORDS = /\b(?:todo|to-do|fixme|action item)\b[:\s(]|^to[- ]dos?\b|^(?:outstanding|open items?)\s*[:：]|\bneeds? (?:updating|fixing|doing|sorting|cleaning|checking|replacing|renewing|chasing|a (?:decision|review|fix|reply|sign-?off|follow-?up))\b|\b(?:need to|needs to|have to|has to|remember to|don['’]t forget|do not forget|(?:must|mustn['’]t|must not) forget|must remember|waiting (?:on|for)|blocked (?:on|by)|gotta|got to|ought to|still pending|open item|need (?:someone|somebody|a volunteer|help) (?:to|for|with)\b)\b/i;
/** Errands at the start of a line ("ask Dana…", "book flights…", "check whether…"): not the person's standing instructions. */
const TASK_START = /^(?:ask|remind|book|call(?! me\b)|schedule|follow up|ping|buy|renew|send|pick up|order|pay|cancel|submit|reserve|chase|reply to|file|set up a call|check (?:if|whether|with|that|on|why|how)|double-check|look into|find out|figure out|investigate|confirm|draft|prepare|request|arrange|organi[sz]e|invite|contact|message|nudge|loop in|sync with|get back to|write up|sort out|clean up|tell \p{Lu}\p{L}+|let \p{Lu}\p{L}+ know)\b/iu;
/** "I should email…", "must chase…", "want to refactor…": an errand after a modal (the errand itself is read by imperativeKindOf). */
const MODAL = /^(?:(?:i|we)\s+)?(?:must|should|(?:will |['’]ll )?need to|want to|wanna|plan to|intend to|have to)\s+(?:(?:probably|really|also|still|definitely|maybe|eventually|soon|at some point)\s+)?/i;
/** A line addressed to someone: "@Arjun please review…", "@me: archive…", "please @Lena…" (both ways hold an @: only a line with one is read). */
const ADDRESSED = /^@[\p{L}\d_.-]+\s*[,:]?\s+(?:please|pls|plz|can you|could you|would you|kindly)\b|(?:please|pls|plz|can you|could you)\s+@[\p{L}\d_.-]+/iu;
/** Asked of anyone who reads it: "can someone book the van", "pls someone restock…". */
const SOMEONE = /^(?:(?:pls|please|plz)\s+)?(?:can|could|would) (?:someone|somebody)\b|^(?:pls|please|plz) (?:someone|somebody)\b|\b(?:someone|somebody) (?:pls|please|needs to|should|has to|must)\b/i;
/** A label before the line's real start ("Kenji:", "by Friday:", "Reminder to self —"), then an optional please; "Reminder: churn = …" stays a fact. */
const LABEL_PREFIX = /^(?:[\p{L}'’() -]{1,24}?|by [^:]{1,20})\s*(?:[:：]|\s[—–-])\s*(?:(?:please|pls|plz|kindly)\s+)?/u;
/** An arrow handing the rest of the line to someone: "Arjun -> look at the leak". */
const ARROW = /(?:→|->|=>|⇒)\s*/;
/** An action item handed to someone: "→ me: get quotes", "-> Dana: review", "AI: …", "next step: …", "@me". */
const ACTION_ITEM = /(?:→|->|=>|⇒)\s*(?:me|@?\p{Lu}[\p{L}-]+)\s*[:：]|^(?:ai|action|actions|action items?|next steps?|follow[- ]?ups?|owner|pending)\s*[:：]|(?:^|\s)@me\b/iu;
/** The same errand words in the other languages notes are written in (French, Portuguese, Spanish, German). */
const TASK_ABROAD_WORDS = String.raw`(?:à faire|a fazer|demander|vérifier|relancer|penser à|il faut|perguntar|verificar|preciso|precisamos|lembrar de|pedir|cobrar|falta (?:fazer|enviar|pedir)|hay que|tengo que|preguntar|pendiente|nachfragen|klären|muss noch)`;
const TASK_ABROAD = new RegExp(String.raw`(?<!\p{L})${TASK_ABROAD_WORDS}(?!\p{L})`, 'iu');
/** The same words without TASK_ABROAD's look around each position (the costly part), tested first: looser, the same `iu` folding. */
const TASK_ABROAD_WORD = new RegExp(TASK_ABROAD_WORDS, 'iu');
const QUESTION_START = /^(?:open question|question|q|open|open point)\s*[:：-]|^(?:q|questions?) (?:for|to) [\p{L}.-]+\s*[:：-]|['’]s question\s*[:：]|^any chance\b|^(?:hmm+|so|but|also),?\s+(?=(?:is|are|was|were|do|does|did|can|could|should|would|will)\s)|^(?:why|should we|should i|how do we|how do i|what if|is it worth|do we|does anyone|not sure (?:if|whether|why))\b/iu;
/**
 * A question asked without a question mark: an interrogative opening ("who owns the gateway",
 * "is the cert renewed", "pourquoi…", "será que…"). "How to…" and "When X, do Y" are not questions.
 */
const QUESTION_WORDING = /^(?:who|whom|whose|which|where|why|whether|what (?:is|are|was|were|do|does|did|about|happens|if)|(?:what|who|where|how|when)['’]s|how (?:much|many|long|often|come|do|does|did|is|are|should|would|can|could)|when (?:is|are|do|does|did|will|should|can)|(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|has|have) (?:we|i|you|they|it|he|she|there|the|this|that|these|those|our|my|your|their|any|anyone|anybody|someone))\b|^(?:is|are|would|could|can|should|does|do|will) (?:a|an)\b|^(?:pourquoi|est-ce que|comment|quand|qui|quel(?:le)?s?|combien|por ?que|porquê|será que|como|quando|quem|qual|quanto|por qué|cuándo|cómo|warum|wieso|wann|wer)(?!\p{L})/iu;
/** "Is Robin joining…", "Does Oktav use…": an interrogative before a name (case-sensitive, so "Was great" is not one). */
const QUESTION_BEFORE_NAME = /^(?:[Ii]s|[Aa]re|[Ww]as|[Ww]ere|[Dd]o|[Dd]oes|[Dd]id|[Cc]an|[Cc]ould|[Ss]hould|[Ww]ould|[Ww]ill|[Hh]as|[Hh]ave) \p{Lu}\p{L}+/u;
const CHECK_LATER = /\b(?:need to check|to be checked|to be (?:confirmed|decided|determined|agreed|discussed|defined)|tbd|tbc|undecided|(?:unclear|not clear|unsure|not sure|no idea|any idea|wonder(?:ing)?|curious|i wonder) (?:why|whether|if|how|who|what|which|when|where|about)|does anyone know|open question|still unknown|no answer yet|idk|dunno|not sure|unsure)\b/i;
/** A question first, then a note to self: "Does Oktav use Storybook? Ask Ravi." */
const LEADING_QUESTION = /^[^.!?]{3,}\?(?:\s|$)/;
/** A question answered on the same line, the answer marked as one: "who has the stockroom key?? -> Dale, ext 4410", "Q: … ? A: …". */
const ANSWERED_QUESTION = /^[^?]{3,}\?+\s*(?:->|→|=>|⇒|=|A:|answer:)\s*(\S.*)$/iu;
/** "if the hub won't pair -> ask Dev": a standing instruction for a situation, not an errand for today. */
const CONDITIONAL = /^(?:if|when(?:ever)?|in case(?: of)?)\s+[^,;→>]{3,80}?(?:,|->|→|=>|:|\bthen\b)\s*(?:then\s+)?/i;
/** A rule in a later clause ("period 3 = my prep -> don't book mtgs then", "I answer within 24h. Never on weekends"): the person's own only when they are in the line. */
const CLAUSE_DIRECTIVE = /(?:->|→|=>|;|[.!]\s|:\s|\s[—–]\s)\s*(?:always|never|don['’]t|do not|no)\b/i;
const FIRST_PERSON = /\b(?:i|me|my|mine|i['’]m|i['’]ll)\b/i;
/** A line that announces a change that lasts: its "today" dates the change, it is not when the line stops holding. */
const CHANGE_ANNOUNCED = /\b(?:moved|switched|changed|migrated|replaced|renamed|transferred)\s+(?:from|to|over)\b|\b(?:from now on|going forward|for good|from today)\b/i;
/** "me: report at the bedside…": a line the person labels as about themselves is their own way of working (an errand so labelled is a task, read first). */
const PREFERENCE_START = /^(?:always|never|prefer|avoid|don['’]t|do not|please|call me|stop)\b|^me\s*[:：]/i;
/** A rule without a verb: "No emojis in commit messages", "Poetry over pip, for me", "tabs > spaces". */
const RULE_WORDING = /\bfor me\b(?! to\b)|\b(?:pls|plz)\b|.\s*\bplease\b|^no (?!(?:idea|answer|response|reply|word|news|update|one|luck|change|sign)\b)(?:[\p{L}-]+ ){0,2}?[\p{L}-]+ (?:in|on|for|before|after|during|at|when|unless|outside)\b|^[\p{L}\d.+#-]+ (?:over|>|instead of|rather than) [\p{L}\d.+#-]+(?:[,.!;]|\s*$|\s+(?:for|in|when|always|please|pls)\b)/iu;
/**
 * Words one of RULE_WORDING's ways must contain, tested first: most lines have none, and this look
 * costs less than RULE_WORDING's scan. Looser than it (no `\b`, the same `iu` folding), so it never skips a rule.
 */
const RULE_WORD = /for me|pl[sz]|please|^no | (?:over|>|instead of|rather than) /iu;
const FIRST_PERSON_PREFERENCE = /\b(?:i prefer|changed my mind|i like|i want|i['’]d rather|i['’]d like|i would like|my preference|i always|i never|i['’]m (?:fine|ok|okay|happy) with|i don['’]t mind|i hate|i love|i dislike|i can['’]t stand|my (?:rule|default|policy)\b)|^i (?:only |usually |mostly )?(?:read|check|answer|reply to|work|take|start|finish)\b(?! (?:the|a|an|it|that|this)\b)/i;
const DECISION = /\b(?:decided|decision|agreed|outcome|consensus|it['’]s final|picked(?! up)|we['’]re (?:dropping|switching to|moving to|going with|keeping|sticking with)|going with|went with|settled (?:on|it)|chose|chosen|opted|voted|after the vote|approved(?! by)|final call|ruled out|(?:our|the) choice (?:for|of|is)|we['’]ll standardi[sz]e|standardi[sz]ed on)\b|\b(?:resolved|confirmed|result|outcome)\s*[:：]/i;
/** Steps: "To reset X, go to…, then…", "Calibrating the pipettes: weigh…, then compare", "Runbook: …". */
const STEPS_START = String.raw`^(?:to [a-z]+[^:]{0,60}:|steps?\b[^:]{0,40}:|how to\b|procedure:|runbook:|checklist:)`;
const PROCEDURE = new RegExp(String.raw`^[^:]{2,50}:[^.]*,\s*(?:and )?then\b|${STEPS_START}|\bfirst\b.*\bthen\b|^(?:to\s+\p{L}+|\p{L}+ing)\b[^.:;]{0,80}[:,]\s.*\bthen\b`, 'iu');
/**
 * PROCEDURE's ways but the first words' need a "then": without one only STEPS_START can match,
 * and it is anchored (the others scan the line). The same `iu` folding, so the pair reads a line as PROCEDURE does.
 */
const PROCEDURE_WITHOUT_THEN = new RegExp(STEPS_START, 'iu');
const THEN = /then/iu;
const EVENT_START = /^(?:met|meeting with|lunch with|dinner with|call with|had (?:a|an|the)|went to|attended|visited|gave (?:a|an|the)\b|\d{1,2}:\d{2}|kick-?off|(?:sprint |team )?retro|demo(?:ed)?|released|shipped|launched|held|first (?:planning|meeting|session|call|workshop)|incident on|(?:team )?offsite|stand-?up ran|(?:grand )?opening (?:of|night)|launch (?:of|party|event)|celebration|farewell|graduation|wedding|funeral|birthday)\b/i;
/** A happening told in the past tense: "went well", "nothing decided", "ran 20 minutes over". */
const EVENT_PHRASE = /\b(?:went (?:well|badly|fine|smoothly|great|ok|okay|poorly|wrong|south|sideways|long)|no conclusions?|nothing (?:agreed|concluded)|about \d+ (?:people|visitors|guests|attendees|parents|kids|customers)\b|went live|nothing decided|ran \d+ minutes over|about \d+ people came|met (?:a|an|the|with)|(?:was |were )?(?:rolled out|promoted to production))\b/i;
/**
 * A diary line that opens with a past-tense verb and no subject ("Handed off the flow…",
 * "Watered the plant", "Tried the new place"): something that happened. Verbs that announce a
 * lasting change ("Moved staging to…", "Switched to…") and participles that describe a state
 * ("Based in…", "Limited to…") are not.
 */
/** Past-tense verbs that announce a lasting change or describe a state, not a happening. */
const NOT_A_HAPPENING = '(?:moved|switched|changed|migrated|renamed|replaced|decided|agreed|based|limited|required|supported|related|shared|signed|expected|automated|dedicated|encrypted|protected|managed|hosted|scheduled|pinned|reserved|allowed|deprecated|archived|nested|detailed|advanced|embed|hundred|named|called|located|owned|used|needed|planned|approved|preferred|locked|blocked|paid|licensed|registered)\\b';
/** A past verb; `\\b` alone would end "lunedì" at "luned" (an accented letter is not a word character to it). */
const PAST_VERB = '(?:[a-z]{2,}[^e\\s]ed|met|went|gave|had|held|ran|took|brought|got|made|saw|spent|came|wrote|spoke|sat(?= (?:in|on|with|down|through|next|around|together|outside)\\b)|won|lost|caught|forgot|did|rode|drove|flew|ate|drank|bought|sold|sent|told|heard|began|broke|taught|woke|threw|fell|fought|swam|sang|loved|died|passed|walked|announced)\\b(?![\\u00C0-\\u024F])';
const PAST_START = new RegExp(`^(?:(?:finally|just|also|then|eventually|at last)\\s+)?(?!${NOT_A_HAPPENING})${PAST_VERB}`, 'i');
/** "Lena presented the roadmap", "We ran out of coffee": a subject, then a past verb not after be/have ("was replaced" is a state) nor after a determiner ("no comped desserts": an adjective). */
/** With a subject, these announce how things are from now on ("We adopted trunk-based development", "Tom joined the team"). */
const LASTING_CHANGE = '(?:adopted|introduced|upgraded|downgraded|retired|dropped|enabled|disabled|installed|added|removed|raised|lowered|increased|reduced|extended|hired|joined|became|standardi[sz]ed|set up|took over|handed over)\\b';
const ACTIVE_PAST = new RegExp(`^(?:[\\p{L}'’&-]+\\s+){1,6}?(?<!\\b(?:is|are|was|were|be|been|being|has|have|had|get|gets|got|to|no|the|a|an|any|every|all|our|my|your|their|his|her|its|this|that|these|those)\\s)(?!${NOT_A_HAPPENING}|${LASTING_CHANGE})${PAST_VERB}`, 'iu');
/** A present-tense verb of state: the line says how things are, even if a past verb follows ("Ruth wants sub plans emailed…"). */
const PRESENT_STATE = /\b(?:is|are|isn['’]t|aren['’]t|has|have|does|do|can|will|must|should|needs?|lives|runs|owns|holds|uses|takes|goes|works|handles|covers|stays|means|wants|likes|prefers|expects)\b/i;
/** "airway was slow", "it was packed": a past copula and what it was, not a passive ("was replaced") or a state reported by someone. */
const PAST_STATE = /^(?:[\p{L}'’-]+\s+){1,3}(?:was|were)\s+(?!(?:\p{L}+ed|being|by|to|not|never|still|always|now)\b)\p{L}+/iu;
/** A definition: "X = Y", "X -> Y", "label: value". */
const DEFINES = /\s(?:=|->|→|=>)\s|[:：]\s/u;
/** An identifier: a phone number or extension in groups, a host, a file, a code with letters and digits. */
const IDENTIFIER = /\b\d+[-.]\d+[-.]\d+\b|\b[\p{L}\d-]+\.(?:[\p{L}]{2,})\b(?=\s|$|[,;)])|\b(?=\p{L}*\d)(?=\d*\p{L})[\p{L}\d]{3,}\b/u;
/** Thanks and a send-off: "Big thanks to Mo", "Jonah's leaving do". */
const THANKS_AND_PARTIES = /^(?:big |many |huge )?thanks? (?:to|for)\b|^kudos\b|^shout-?out\b|\b(?:leaving do|send-?off|farewell drinks|leaving party)\b|,\s*(?:about |around |~)?\d+ (?:people|visitors|guests|attendees)\.?$/i;

/** A meeting named then described: "Sprint review: showed…", "Long planning meeting, no conclusions", "Coffee chat with Keisha". */
const MEETING_PHRASE = /^(?:[\p{L}-]+\s+){0,3}?(?:meeting|call|sync|session|workshop|chat|catch-?up|stand-?up|1:1|one-on-one|lunch|dinner|breakfast|interview|review|retro|retrospective|demo|kick-?off|presentation|training|offsite|webinar|walkthrough|debrief|post-?mortem|all-hands)\s*(?:[,:;—–]|with\b|about\b|re\b|w\/)/iu;
/** Meeting minutes: "Attendees: …", "Minutes of the sync", "Recap:". */
const MINUTES = /^(?:attendees|participants|present|minutes|recap|notes from)\b\s*(?:[:—–-]|of\b|from\b)/i;
/** An occasion and what it did: "The parent-teacher evening was packed", "the fire drill went smoothly". */
const OCCASION_PAST = /\b(?:(?:open|away|sports|field|launch|demo|release) day|evening|meeting|party|opening|dinner|lunch|workshop|drill|session|demo|talk|gig|concert|launch|call|interview|visit|trip|offsite|outage|incident|event|fair|play|show|performance|harvest|festival|match|class|lesson|rehearsal|ceremony|conference|webinar|training|kick-?off|stand-?up|presentation|hackathon|audit)s?\b[^.;]{0,40}?\b(?:was|were|went|lasted|ran|started|ended|finished|took|began|happened|failed|crashed|broke|lost|got (?:cancel+ed|postponed))\b/iu;
/**
 * The line opens by naming the day's occasion, then says what it held: "deep clean day, walk-in +
 * hood filters", "PD day, no students", "build night w/ Sam", "restaurant week night 2: 91 covers".
 * A day that recurs ("trash day: Tuesdays") names a weekday and stays a fact.
 */
const OCCASION_OF_THE_DAY = /^(?:[\p{L}'’-]+\s+){1,3}?(?:day|night)(?:\s+\d+)?\s*(?:[,:(]|w\/|with\b|$)/iu;
const NAMES_A_WEEKDAY = /\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?\b|\b(?:wednes|satur)days?\b/i;

/** When it happened: "yesterday", "last night", "this morning". */
const HAPPENED_WHEN = /\b(?:yesterday|last night|this morning|this afternoon|this evening|earlier today|last week|last (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;
/** A state that goes on (a schedule, a change made for good): not a one-off happening, whatever the verb. */
const LASTING = /\b(?:every|each|weekly|daily|monthly|yearly|biweekly|fortnightly|usually|normally|from now on|going forward|moved to|changed to|switched to)\b/i;

const NO_CUE = 'no other kind matched';

/**
 * A pure reading of a line, remembered for the last line it was asked of: the rules ask some of
 * the same questions of a line twice (the to-do words before and in taskCue, the steps in
 * taskCue and again before the happenings), and each was a scan of the line.
 */
function askedOnce<T>(read: (words: string) => T): (words: string) => T {
  let lastWords: string | null = null;
  let last!: T;
  return (words) => {
    if (words !== lastWords) {
      last = read(words);
      lastWords = words;
    }
    return last;
  };
}

const taskWordsIn = askedOnce((words) => TASK_WORDS.exec(words));
const readsAsSteps = askedOnce((words) => (THEN.test(words) ? PROCEDURE : PROCEDURE_WITHOUT_THEN).test(words));
const eventPhraseIn = askedOnce((words) => EVENT_PHRASE.exec(words));
/** imperativeKindOf of a whole line (its parts after a modal, an arrow or a label are read directly). */
const lineImperative = askedOnce(imperativeKindOf);

/**
 * A line's kind: the hand rules, overruled by the statistical scorer (kindScorer.ts) where it
 * reads a durable verdict as work, a question, a happening or a time-bounded state, or where no
 * rule had a cue. An annotation always wins.
 */
export function classifyEntry(raw: string, noteDay: string | null): EntryKindResult {
  const rules = classifyByRules(raw, noteDay);
  if (rules.cue === ANNOTATED) return rules;
  const scored = overruleByScorer(raw, rules.kind, rules.cue === NO_CUE);
  if (!scored) return rules;
  return { kind: scored, validUntil: scored === 'time-bounded' ? validityOf(entryWords(raw).words, noteDay) : null, cue: `the kind scorer (the rules said ${rules.kind})` };
}

const ANNOTATED = 'a kind annotation';

/** The hand rules alone (the training script needs their verdict apart from the scorer's). */
export function classifyByRules(raw: string, noteDay: string | null): EntryKindResult {
  const annotated = KIND_ANNOTATION.exec(raw)?.[1]?.toLowerCase() as EntryKind | undefined;
  const { body, words } = entryWords(raw);
  if (annotated && KINDS.includes(annotated)) {
    return { kind: annotated, validUntil: annotated === 'time-bounded' ? validityOf(words, noteDay) : null, cue: ANNOTATED };
  }
  // Before the errands: the order after a condition is what to do whenever it happens, not today's errand.
  if (!CHECKBOX.test(body) && !taskWordsIn(words) && isConditionalInstruction(words)) return { kind: 'procedure', validUntil: null, cue: 'an instruction for a situation ("if…")' };
  const task = taskCue(body, words);
  if (task) return { kind: 'task', validUntil: null, cue: task };
  const question = questionCue(words);
  if (question) return { kind: 'question', validUntil: null, cue: question };
  const dated = timeBound(words, noteDay);
  const bounded = dated && /^(?:today|tonight)$/i.test(dated.cue) && CHANGE_ANNOUNCED.test(words) ? null : dated;
  // "Kickoff for the redesign today", "Harvest started today": what happened today, not a state that ends tonight.
  const happenedToday = bounded && /^(?:today|tonight)$/i.test(bounded.cue) ? happeningCue(words) : null;
  if (happenedToday) return { kind: 'event', validUntil: null, cue: happenedToday };
  if (bounded) return { kind: 'time-bounded', validUntil: bounded.validUntil, cue: `"${bounded.cue}"` };
  if (lineImperative(words)?.kind === 'rule' || PREFERENCE_START.test(words) || FIRST_PERSON_PREFERENCE.test(words) || isOwnRuleInAClause(words)) return { kind: 'preference', validUntil: null, cue: 'a directive by the person' };
  const eventPhrase = eventPhraseIn(words);
  if (eventPhrase) return { kind: 'event', validUntil: null, cue: `"${eventPhrase[0]}"` };
  if (DECISION.test(words)) return { kind: 'decision', validUntil: null, cue: `"${DECISION.exec(words)![0]}"` };
  // After decisions: "Picked Onshape over SolidWorks" is a choice made, "Poetry over pip, for me" a rule.
  if (RULE_WORD.test(words) && RULE_WORDING.test(words)) return { kind: 'preference', validUntil: null, cue: 'a rule by the person' };
  if (readsAsSteps(words)) return { kind: 'procedure', validUntil: null, cue: 'steps' };
  const event = happeningCue(words);
  if (event) return { kind: 'event', validUntil: null, cue: event };
  return { kind: 'fact', validUntil: null, cue: NO_CUE };
}

/** Why a line is work to do, or null: a checkbox, to-do words, an errand, an action item, a line addressed to someone. */
function taskCue(body: string, words: string): string | null {
  if (CHECKBOX.test(body)) return 'a checkbox';
  const order = lineImperative(words);
  // "Send me the numbers every Monday": an order that is a standing rule is the person's preference, whatever its verb.
  const cue = taskWordsIn(words) ?? ACTION_ITEM.exec(words) ?? (words.includes('@') ? ADDRESSED.exec(words) : null) ?? SOMEONE.exec(words) ?? (order?.kind === 'rule' ? null : TASK_START.exec(words) ?? (TASK_ABROAD_WORD.test(words) ? TASK_ABROAD.exec(words) : null));
  if (cue) return `"${cue[0].trim()}"`;
  if (order?.kind === 'errand') return `an errand ("${order.verb}…")`;
  const modal = MODAL.exec(words);
  const intended = modal && imperativeKindOf(words.slice(modal[0].length));
  if (intended?.kind === 'errand') return `an errand ("${modal![0].trim()} ${intended.verb}…")`;
  const arrow = ARROW.exec(words);
  const handed = arrow && imperativeKindOf(words.slice(arrow.index + arrow[0].length).replace(/^(?:me|@?\p{Lu}[\p{L}-]*)\s*[:：,]\s*/u, ''));
  if (handed?.kind === 'errand') return `an errand handed on ("${arrow![0].trim()} ${handed.verb}…")`;
  const label = readsAsSteps(words) ? null : LABEL_PREFIX.exec(words);
  const labelled = label && imperativeKindOf(words.slice(label[0].length));
  if (labelled?.kind === 'errand') return `an errand after a label ("${labelled.verb.toLowerCase()}…")`;
  return null;
}

/** Why a line is an open question, or null. */
function questionCue(words: string): string | null {
  // The question-mark ways, only for the one line in fourteen that has one.
  const marked = words.includes('?');
  const answer = marked ? ANSWERED_QUESTION.exec(words)?.[1] : undefined;
  if (answer && !questionCue(answer) && !taskCue(answer, answer)) return null;
  if (marked && (/\?\s*(?:\)|["'”’])?\s*$/.test(words) || /\?\s+(?:need to|to check|tbd)\b/i.test(words) || LEADING_QUESTION.test(words))) return 'a question mark';
  const cue = QUESTION_START.exec(words) ?? QUESTION_WORDING.exec(words) ?? QUESTION_BEFORE_NAME.exec(words);
  if (cue) return `asks "${cue[0].trim()}…"`;
  const later = CHECK_LATER.exec(words);
  return later ? `"${later[0]}"` : null;
}

/** Why a line tells something that happened, or null: a meeting, minutes, an occasion, a diary verb. */
function happeningCue(words: string): string | null {
  const start = eventPhraseIn(words) ?? EVENT_START.exec(words) ?? MINUTES.exec(words) ?? THANKS_AND_PARTIES.exec(words);
  if (start) return `"${start[0].trim()}"`;
  if (LASTING.test(words)) return null;
  // Cues are stored once per distinct text (index/entryKindsTable.ts): name the kind of cue and one word, never a run of the line.
  const meeting = MEETING_PHRASE.exec(words);
  if (meeting) return 'a meeting told';
  if (OCCASION_OF_THE_DAY.test(words) && !NAMES_A_WEEKDAY.test(words)) return 'the day\'s occasion named';
  const occasion = OCCASION_PAST.exec(words);
  if (occasion) return `an occasion that happened ("${lastWord(occasion[0])}")`;
  const when = HAPPENED_WHEN.exec(words) ?? PAST_START.exec(words);
  if (when) return `"${when[0].trim()}"`;
  if (PRESENT_STATE.test(words)) return null;
  // "Pi Day pie contest: my key lime took 2nd": what happened, told after a label naming the occasion.
  const label = /^[^:：]{3,40}[:：]\s+/u.exec(words);
  const past = ACTIVE_PAST.exec(words) ?? (label ? ACTIVE_PAST.exec(words.slice(label[0].length)) : null);
  if (past) return `a past happening ("${lastWord(past[0])}")`;
  // "Press check at Hahn for the cover, colours matched", "mock code at 02:00, compressions were good": a
  // line with no verb of state whose later clause tells, in the past tense, how something went. A line
  // that defines something ("gas shutoff = behind the sink. showed Marco", "Toast support 617-555-0199,
  // they picked up in 2 min") keeps its fact, whatever anecdote follows.
  if (DEFINES.test(words) || IDENTIFIER.test(words)) return null;
  for (const clause of words.split(/[,;]\s+|[.!]\s+/).slice(1)) {
    const told = PAST_START.exec(clause) ?? ACTIVE_PAST.exec(clause) ?? PAST_STATE.exec(clause);
    if (told && !/^['’]/.test(clause.slice(told[0].length))) return `a past happening ("${lastWord(told[0])}")`;
  }
  return null;
}

function lastWord(text: string): string {
  return text.trim().split(/\s+/).pop()!.toLowerCase();
}

/** "if the hub won't pair -> ask Dev, he set the admin pw": what to do whenever it happens (an order after a condition). */
function isConditionalInstruction(words: string): boolean {
  const condition = CONDITIONAL.exec(words);
  if (!condition) return false;
  const then = words.slice(condition[0].length);
  return imperativeKindOf(then) !== null || TASK_START.test(then) || PREFERENCE_START.test(then);
}

/** "period 3 = my prep -> don't book mtgs then": a rule in a later clause of a line about the person themselves. */
function isOwnRuleInAClause(words: string): boolean {
  return CLAUSE_DIRECTIVE.test(words) && FIRST_PERSON.test(words);
}
