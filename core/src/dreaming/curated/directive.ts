/**
 * Directive detection: a preference or instruction about how to work with the person belongs
 * in USER.md, a fact about the world in MEMORY.md. Deterministic wording rules, no model.
 */

const IMPERATIVE_START = /^(?:always|never|prefer|use|avoid|don['’]t|do not|please|keep|write|answer|reply|call me|stop)\b/i;
/** "To backfill features: …; never more than 30 days": a procedure's own rule, not the person's preference. */
const PROCEDURE_START = /^to\s+\p{L}+[^:]{0,60}:/iu;
/** A rule in a later clause: "Actually, PRs up to 600 lines are fine…; keep the 400 line rule for production code". */
const IMPERATIVE_CLAUSE = /[;:]\s*(?:always|never|keep|use|avoid|don['’]t|do not|stop)\b/i;
const FIRST_PERSON_PREFERENCE = /\b(?:i prefer|i like|i want|i['’]d rather|my preference)\b/i;
/** "Prefer…", "preferred:", "we prefer": the person's own. "Priya prefers…" is a fact about Priya, for MEMORY.md. */
const PREFER_ANYWHERE = /prefer(?!s\b)|\b(?:the )?user prefers\b/i;
/** A leading list marker or checkbox is formatting, not wording. */
const LEADING_MARKER = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\[[ xX]\]\s+)?/;

export function isDirective(text: string): boolean {
  const words = text.replace(LEADING_MARKER, '').trim();
  return IMPERATIVE_START.test(words) || (IMPERATIVE_CLAUSE.test(words) && !PROCEDURE_START.test(words)) || FIRST_PERSON_PREFERENCE.test(words) || PREFER_ANYWHERE.test(words);
}
