/**
 * What never reaches the log: agent tokens, bearer credentials, tokens in URLs, fields whose
 * name says they hold a secret, values the caller wrapped in `secret()`, and strings the engine
 * registered as secrets (e.g. the window's launch token). Applied to every message, field,
 * error message and stack before a record is written or kept in memory.
 */
export const REDACTED = '[redacted]';

/** A value the caller marks as secret: logged as `[redacted]`, whatever it holds. */
export class SecretValue {
  constructor(readonly value: unknown) {}
  toJSON(): string {
    return REDACTED;
  }
  toString(): string {
    return REDACTED;
  }
}

export function secret(value: unknown): SecretValue {
  return new SecretValue(value);
}

/** Agent tokens are `rvr_` + 43 base64url characters (see agents/agentRegistry.ts); shorter tails are redacted too. */
const AGENT_TOKEN = /\brvr_[A-Za-z0-9_-]{6,}/g;
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
/** `#token=…`, `?access_token=…`, `&password=…`, `api_key=…`: in URLs, query strings and prose alike. */
const SECRET_PARAMETER = /\b((?:[A-Za-z]+[_-])?(?:token|password|passwd|secret|api[_-]?key|apikey)=)[^\s&#"'<>]+/gi;
/** Field names whose values are secrets whatever they look like. */
const SECRET_FIELD_NAME = /token|secret|password|passwd|authorization|cookie|api[_-]?key|credential/i;

const MAX_STRING_CHARS = 4000;
const MAX_ARRAY_ITEMS = 50;
const MAX_DEPTH = 4;

export class Redactor {
  private readonly known = new Set<string>();

  /** @param extra more patterns (the engine passes the transcript redactor's provider-key rules). */
  constructor(private readonly extra: ((text: string) => string) | null = null) {}

  /** A string that must never be written, wherever it appears (at least 8 characters, so common words are never hidden). */
  addSecret(value: string): void {
    if (value.length >= 8) this.known.add(value);
  }

  text(input: string, maxChars = MAX_STRING_CHARS): string {
    let text = input.length > maxChars ? `${input.slice(0, maxChars)}… (${input.length - maxChars} more characters)` : input;
    for (const value of this.known) if (text.includes(value)) text = text.split(value).join(REDACTED);
    text = text.replace(AGENT_TOKEN, `rvr_${REDACTED}`).replace(BEARER, `$1 ${REDACTED}`).replace(SECRET_PARAMETER, `$1${REDACTED}`);
    return this.extra ? this.extra(text) : text;
  }

  /** A JSON-safe, redacted copy of a context value (bounded in depth, array length and string length). */
  value(input: unknown, key = '', depth = 0): unknown {
    if (input instanceof SecretValue || (key !== '' && SECRET_FIELD_NAME.test(key) && input !== null && input !== undefined)) return REDACTED;
    if (typeof input === 'string') return this.text(input);
    if (typeof input === 'number' || typeof input === 'boolean' || input === null) return input;
    if (input === undefined) return null;
    if (typeof input === 'bigint') return input.toString();
    if (input instanceof Error) return this.text(`${input.name}: ${input.message}`);
    if (input instanceof Date) return input.toISOString();
    if (typeof input !== 'object') return this.text(String(input));
    if (depth >= MAX_DEPTH) return '[…]';
    if (Array.isArray(input)) {
      const items = input.slice(0, MAX_ARRAY_ITEMS).map((item) => this.value(item, '', depth + 1));
      if (input.length > MAX_ARRAY_ITEMS) items.push(`… ${input.length - MAX_ARRAY_ITEMS} more`);
      return items;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) out[k] = this.value(v, k, depth + 1);
    return out;
  }
}
