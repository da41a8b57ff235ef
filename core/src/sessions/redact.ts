/**
 * Secret redaction for transcript text. Patterns are anchored on the shapes providers document
 * (prefixes, lengths) rather than entropy, so hashes and ordinary words in prose are left alone.
 */
export const REDACTED = '[REDACTED]';

export interface RedactionResult {
  text: string;
  /** Number of secrets replaced. */
  count: number;
}

type Replacer = (match: string, groups: string[]) => string | null;

interface RedactionRule {
  name: string;
  /** A cheap test that must pass before the full pattern runs (most text holds no secret at all). */
  hint: RegExp;
  pattern: RegExp;
  /** Returns the replacement, or null to keep the match (a false positive). */
  replace: Replacer;
}

const hasDigit = (s: string): boolean => /\d/.test(s);
const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);
const whole: Replacer = () => REDACTED;

// Values that are clearly not secrets: placeholders, references to variables, booleans, types.
const PLACEHOLDER_VALUE =
  /^(?:\$\{?[A-Za-z_].*|\{\{.*|<[^>]*>|\*+|x{3,}|\.{3}|…|null|none|nil|undefined|true|false|string|number|boolean|required|optional|redacted|\[redacted\])$/i;
// An unquoted identifier or member path without digits (`getToken`, `process.env.TOKEN`): code, not a secret.
const IDENTIFIER_PATH = /^[A-Za-z_$][A-Za-z_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

function isSecretLikeAssignmentValue(raw: string): boolean {
  const quoted = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw[raw.length - 1] === raw[0];
  const value = quoted ? raw.slice(1, -1).trim() : raw;
  if (value.length < 3 || value.includes(REDACTED) || PLACEHOLDER_VALUE.test(value)) return false;
  if (!quoted && IDENTIFIER_PATH.test(value)) return false;
  return true;
}

const RULES: RedactionRule[] = [
  {
    // PEM/OpenSSH/PGP private keys; an unterminated block is redacted to the end of the text.
    name: 'private key',
    hint: /PRIVATE KEY/,
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END \1PRIVATE KEY\2-----|$)/g,
    replace: whole,
  },
  {
    name: 'password in URL',
    hint: /:\/\/[^\s/]*@/,
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+:)([^\s/?#@]+)@/gi,
    replace: (_m, [prefix = '', password = '']) => (password === REDACTED ? null : `${prefix}${REDACTED}@`),
  },
  { name: 'Anthropic key', hint: /sk-ant-/, pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, replace: whole },
  {
    // Requires letters and digits after the prefix so that words like "sk-learn-compatible" survive.
    name: 'OpenAI key',
    hint: /sk-/,
    pattern: /\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})/g,
    replace: (_m, [body = '']) => (hasDigit(body) && hasLetter(body) ? REDACTED : null),
  },
  { name: 'GitHub token', hint: /gh[pousr]_/, pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g, replace: whole },
  { name: 'GitHub fine-grained token', hint: /github_pat_/, pattern: /\bgithub_pat_[A-Za-z0-9_]{22,}/g, replace: whole },
  { name: 'AWS access key id', hint: /AKIA|ASIA/, pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: whole },
  { name: 'Slack token', hint: /xox[abposre]-/, pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, replace: whole },
  { name: 'Google API key', hint: /AIza/, pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, replace: whole },
  { name: 'JWT', hint: /eyJ/, pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: whole },
  {
    // "Bearer tokens are …" in prose has no digits; real tokens are long and mixed.
    name: 'Bearer token',
    hint: /Bearer\s/,
    pattern: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (_m, [prefix = '', token = '']) => (hasDigit(token) && hasLetter(token) ? `${prefix}${REDACTED}` : null),
  },
  {
    name: 'Basic credentials',
    hint: /Basic\s/i,
    pattern: /\b(Authorization:\s*Basic\s+)([A-Za-z0-9+/]{8,}={0,2})/gi,
    replace: (_m, [prefix = '']) => `${prefix}${REDACTED}`,
  },
  {
    // password=…, "api_key": "…", DB_PASSWORD=…, client_secret: … (the key must end with the keyword,
    // so max_tokens=4096 and tokenizer=… are left alone). An unquoted value ends at "&name=" (a query string).
    name: 'secret assignment',
    hint: /pass|secret|token|key/i,
    pattern:
      /\b([A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key)["']?)(\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|(?:[^\s,;&"'<>(){}[\]]|&(?![A-Za-z_][A-Za-z0-9_]*=))+)/gi,
    replace: (_m, [key = '', separator = '', value = '']) => {
      if (!isSecretLikeAssignmentValue(value)) return null;
      const quote = value[0] === '"' || value[0] === "'" ? value[0] : '';
      return `${key}${separator}${quote}${REDACTED}${quote}`;
    },
  },
];

/**
 * Every hint of the rules before the last (secret assignment), in one scan: most text holds none
 * of them, and thirteen scans of every message were a reader thread's largest regular-expression
 * cost. Without a match none of those rules can change the text (each runs only where its hint
 * matches), so only the last rule runs. `Basic\s` is the one hint matched in any case.
 */
const TOKEN_HINTS = /PRIVATE KEY|:\/\/[^\s/]*@|sk-|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abposre]-|AIza|eyJ|Bearer\s|[Bb][Aa][Ss][Ii][Cc]\s/;
const LAST_RULE_ONLY = RULES.slice(-1);
if (LAST_RULE_ONLY[0]?.name !== 'secret assignment') throw new Error('redact.ts: TOKEN_HINTS covers every rule but the last, secret assignment');

/** Replaces API keys, tokens, URL passwords, private keys and secret assignments with `[REDACTED]`. */
export function redactSecrets(text: string): RedactionResult {
  let count = 0;
  let out = text;
  for (const rule of TOKEN_HINTS.test(text) ? RULES : LAST_RULE_ONLY) {
    if (!rule.hint.test(out)) continue;
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      // The capture groups come before the numeric match offset in a replacer's arguments.
      const groups = rest.slice(0, rest.findIndex((arg) => typeof arg === 'number')).map((g) => (typeof g === 'string' ? g : ''));
      const replacement = rule.replace(match, groups);
      if (replacement === null) return match;
      count += 1;
      return replacement;
    });
  }
  return { text: out, count };
}

/** Names of the rules, for documentation and tests. */
export const REDACTION_RULE_NAMES: readonly string[] = RULES.map((r) => r.name);
