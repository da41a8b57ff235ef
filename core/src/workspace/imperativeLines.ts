/**
 * A note line that opens with an order ("Update the README", "Get quotes from two firms",
 * "Keep PRs under 400 lines") is either an errand (a task, done once) or a standing rule of the
 * person's (a preference). Which one is told by the verb and by words of a rule ("always",
 * "unless", "for me", "instead of"), not by a model.
 */

/** Verbs that are seldom a noun at the start of a line: an order whatever follows. */
const ERRAND_VERBS = [
  'add', 'back up', 'bring', 'buy', 'cancel', 'collect', 'configure', 'create', 'delete', 'drop off', 'fetch', 'fill in', 'fill out', 'find', 'get',
  'get in touch with', 'give', 'go over', 'go through', 'grab', 'hand in', 'investigate', 'invite', 'look at', 'look into', 'make', 'migrate', 'nudge', 'organise', 'organize',
  'pick up', 'ping', 'prepare', 'put', 'reach out', 'refactor', 'remind', 'remove', 'rename', 'renew', 'replace', 'reschedule', 'rewrite',
  'send', 'sort out', 'submit', 'take', 'tidy', 'try', 'speak to', 'speak with', 'talk to', 'verify', 'write to', 'write up',
];
/** Verbs that are also nouns ("Review happens on Fridays", "Email is the best way…"): an order only before an object. */
const AMBIGUOUS_VERBS = [
  'address', 'answer', 'archive', 'ask', 'book', 'bump', 'call', 'change', 'chase', 'check', 'clean', 'clear', 'close', 'contact', 'copy', 'deploy',
  'document', 'download', 'draft', 'dust', 'email', 'e-mail', 'empty', 'file', 'finish', 'fix', 'follow up', 'install', 'mail', 'merge',
  'message', 'move', 'note down', 'open', 'order', 'pack', 'pay', 'phone', 'plan', 'post', 'print', 'read', 'record', 'release', 'repair',
  'reply', 'report', 'restart', 'return', 'review', 'ring', 'run', 'scan', 'schedule', 'set up', 'share', 'ship', 'show', 'sign', 'split',
  'start', 'tag', 'test', 'text', 'triage', 'update', 'upgrade', 'upload', 'wash', 'water', 'write',
];
/** Verbs of a standing rule: "Use British spelling", "Keep PRs small", "Default to Postgres". */
const RULE_VERBS = /^(?:use(?! (?:of|case)\b)|keep(?! (?:an eye|track|tabs)\b)|avoid|default to|stick (?:to|with)|favou?r|treat|assume)\b/i;
/** Words that make an order a standing rule rather than an errand. */
const RULE_WORDS = /(?:,\s*[\p{L} ]{1,20} only|\bonly)[.!]?$|\b(?:always|never|every|each time|whenever|by default|as a rule|from now on|going forward|in all|in every|at all times|unless|instead of|rather than|for me|to me|with me)\b(?! to\b)/iu;

/** "Give me options, not one answer", "Remind me three days before": how the person wants to be treated. */
const ME_AND_A_RULE = /^\p{L}+ me\b.*\b(?:not|only|first|before|instead|unless)\b/iu;
/** An object or particle after an ambiguous verb: "Review Ayla's doc", "Update the README", "Check on…". */
const OBJECT_START = /^(?:the|a|an|my|our|your|his|her|their|its|this|that|these|those|some|any|all|both|each|more|another|two|three|new|old|next|last|remaining|unused|missing|current|latest|it|them|him|us|up|out|back|down|off|with|about|\d+|\p{Lu}\p{L}*)(?!\p{L})/u;

const escape = (verb: string): string => verb.replace(/ /g, '\\s+');
const ERRAND_START = new RegExp(`^(?:re-?)?(?:${ERRAND_VERBS.map(escape).join('|')})(?!\\p{L}|-)`, 'iu');
const AMBIGUOUS_START = new RegExp(`^(?:re-?)?(?:${AMBIGUOUS_VERBS.map(escape).join('|')})(?!\\p{L}|-)`, 'iu');
/** "re-run", "re-test": a verb with a re- prefix is an order whatever the verb. */
const RE_VERB = /^re-\p{L}{3,}\b/iu;

export type ImperativeKind = 'errand' | 'rule';

/** What a line that opens with an order is, or null when it does not open with one. */
export function imperativeKindOf(words: string): { kind: ImperativeKind; verb: string } | null {
  const rule = RULE_VERBS.exec(words);
  if (rule) return { kind: 'rule', verb: rule[0] };
  const errand = ERRAND_START.exec(words) ?? RE_VERB.exec(words);
  const ambiguous = errand ? null : AMBIGUOUS_START.exec(words);
  const verb = errand?.[0] ?? ambiguous?.[0];
  if (!verb) return null;
  if (/^call me\b/i.test(words) || ME_AND_A_RULE.test(words)) return { kind: 'rule', verb };
  // "reorder", "rebook": a noun seldom takes the re- prefix.
  const prefixed = ambiguous && /^re-?/i.test(verb) && !AMBIGUOUS_VERBS.includes(verb.toLowerCase());
  if (ambiguous && !prefixed && !OBJECT_START.test(words.slice(verb.length).trimStart())) return null;
  // "Show prices without VAT to me", "Send me the report every Monday": how to work with the person, for good.
  if (RULE_WORDS.test(words)) return { kind: 'rule', verb };
  return { kind: 'errand', verb };
}
