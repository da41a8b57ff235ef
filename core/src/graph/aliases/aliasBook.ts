import { cleanLabel, labelKey } from '../labelKey.js';

/** The workspace's alias file: at the root beside MEMORY.md, so it syncs with the notes and survives an index rebuild. */
export const ALIAS_FILE = 'ALIASES.md';

/** One rule line of the alias file (1-based line number). */
export interface AliasRule {
  line: number;
  kind: 'merge' | 'split';
  /** merge: the first is the name shown, the rest are other names of it; split: the two names kept apart. */
  names: string[];
}

/** A line the graph ignored, and why, in a sentence that names the file and the line. */
export interface AliasNotice {
  line: number;
  message: string;
}

/** The longest name a rule may hold (a name, not a paragraph). */
const MAX_NAME = 200;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const FENCE = /^\s*(```|~~~)/;

/**
 * The alias file read into groups of names (one entity each) and pairs kept apart. Rules apply
 * top to bottom; a rule that cannot apply (a syntax error, a cycle, a name already in another
 * group, a merge a split forbids) is ignored with a notice, and the rest still apply.
 */
export class AliasBook {
  readonly rules: AliasRule[] = [];
  readonly notices: AliasNotice[] = [];
  /** Every grouped name's key → its group's shown key. */
  private readonly groupOf = new Map<string, string>();
  /** A group's shown key → the label shown and the keys in it. */
  private readonly groups = new Map<string, { label: string; line: number; members: Set<string> }>();
  private readonly splitLines: Array<{ line: number; a: string; b: string; labels: [string, string] }> = [];
  private splitPairs: Set<string> | null = null;
  /** Every key a split names. */
  private readonly splitNames = new Set<string>();

  static parse(text: string): AliasBook {
    const book = new AliasBook();
    let fenced = false;
    let comment = false;
    text.split(/\r?\n/).forEach((raw, i) => {
      const line = i + 1;
      if (FENCE.test(raw)) fenced = !fenced;
      if (fenced || FENCE.test(raw)) return;
      // HTML comments hold the person's own remarks: never rules.
      const visible = stripComments(raw, comment);
      comment = visible.open;
      const bullet = BULLET.exec(visible.text);
      if (!bullet) return; // headings and prose explain; only list items are rules
      book.apply(line, bullet[1]!.trim());
    });
    return book;
  }

  /** The group a name belongs to, as its shown label and key; null when no rule names it. */
  canonicalOf(key: string): { key: string; label: string } | null {
    const group = this.groupOf.get(key);
    if (group === undefined) return null;
    return { key: group, label: this.groups.get(group)!.label };
  }

  /** Whether the file names this key at all (in a merge or a split). */
  names(key: string): boolean {
    return this.groupOf.has(key) || this.splitNames.has(key);
  }

  /** Whether a split rule keeps these two names (or their groups) apart. */
  areKeptApart(a: string, b: string): boolean {
    if (this.splitLines.length === 0) return false;
    this.splitPairs ??= new Set(this.splitLines.map((s) => pairKey(this.shownKey(s.a), this.shownKey(s.b))));
    return this.splitPairs.has(pairKey(this.shownKey(a), this.shownKey(b)));
  }

  get hasSplits(): boolean {
    return this.splitLines.length > 0;
  }

  /**
   * Why merging these names (the first shown) cannot apply, in a sentence; null when it can.
   * Used for the contract's `graph.merge` before anything is written.
   */
  mergeRefusal(names: readonly string[], line: number): string | null {
    return this.checkMerge(names.map((n) => cleanLabel(n)), line);
  }

  /** Why keeping these two apart cannot apply; null when it can. */
  splitRefusal(a: string, b: string, line: number): string | null {
    return this.checkSplit(cleanLabel(a), cleanLabel(b), line);
  }

  private shownKey(key: string): string {
    return this.groupOf.get(key) ?? key;
  }

  private apply(line: number, body: string): void {
    const split = body.split(/\s*(?:!=|≠)\s*/);
    const merge = body.split(/\s*=\s*/);
    if (split.length > 1) {
      if (body.replace(/!=|≠/g, '').includes('=')) return this.notice(line, 'mixes "=" and "!=" on one line; write a merge and a split on separate lines');
      if (split.length !== 2) return this.notice(line, 'a split names exactly two things ("Sam != Sam Reyes")');
      const [a, b] = split.map((n) => cleanLabel(n)) as [string, string];
      const refusal = this.checkSplit(a, b, line);
      if (refusal) return this.notice(line, refusal);
      this.splitLines.push({ line, a: labelKey(a), b: labelKey(b), labels: [a, b] });
      this.splitNames.add(labelKey(a)).add(labelKey(b));
      this.splitPairs = null;
      this.rules.push({ line, kind: 'split', names: [a, b] });
      return;
    }
    if (merge.length < 2) return this.notice(line, 'is not a rule: write "Name = other name = @handle" to merge, or "Name != other name" to keep two apart');
    const names = merge.map((n) => cleanLabel(n));
    const refusal = this.checkMerge(names, line);
    if (refusal) return this.notice(line, refusal);
    this.join(names, line);
    this.rules.push({ line, kind: 'merge', names });
  }

  private notice(line: number, message: string): void {
    this.notices.push({ line, message: `${ALIAS_FILE} line ${line} ${message}; the line is ignored.` });
  }

  private checkNames(names: readonly string[]): string | null {
    if (names.some((n) => n === '')) return 'has an empty name (a "=" with nothing on one side)';
    const long = names.find((n) => n.length > MAX_NAME);
    if (long) return `has a name longer than ${MAX_NAME} characters ("${long.slice(0, 40)}…")`;
    const keys = names.map(labelKey);
    const twice = keys.find((k, i) => keys.indexOf(k) !== i);
    if (twice !== undefined) return `names "${names[keys.indexOf(twice)]}" twice`;
    return null;
  }

  private checkMerge(names: readonly string[], line: number): string | null {
    if (names.length < 2) return 'needs at least two names to merge';
    const bad = this.checkNames(names);
    if (bad) return bad;
    const [shown, ...others] = names as [string, ...string[]];
    const shownKey = labelKey(shown);
    const shownGroup = this.groupOf.get(shownKey);
    for (const other of others) {
      const key = labelKey(other);
      const group = this.groupOf.get(key);
      // "Dana = Dana Okafor" after "Dana Okafor = Dana": each would be the other's alias.
      if (group === key && shownGroup === key && shownKey !== key) return `would make a cycle: "${shown}" is already another name of "${other}" (line ${this.groups.get(group)!.line}), so "${other}" cannot also be another name of "${shown}"`;
      if (group === undefined || group === shownGroup) continue;
      if (group === key && shownGroup !== undefined) continue; // joining two groups: "${other}"'s group comes along
      if (group !== key) return `would put "${other}" in two groups: it is already another name of "${this.groups.get(group)!.label}" (line ${this.groups.get(group)!.line}); split it from there first`;
    }
    // A split rule keeps two of these (or their groups) apart.
    const shownKeys = new Set(names.map((n) => this.shownKey(labelKey(n))));
    for (const s of this.splitLines) {
      if (s.line === line) continue;
      const [a, b] = [this.shownKey(s.a), this.shownKey(s.b)];
      const touches = (k: string) => shownKeys.has(k) || names.some((n) => labelKey(n) === k);
      if (touches(a) && touches(b)) return `merges "${s.labels[0]}" and "${s.labels[1]}", which line ${s.line} keeps apart; remove that line to merge them`;
    }
    return null;
  }

  private checkSplit(a: string, b: string, _line: number): string | null {
    const bad = this.checkNames([a, b]);
    if (bad) return bad;
    const [ka, kb] = [this.shownKey(labelKey(a)), this.shownKey(labelKey(b))];
    if (ka === kb) {
      const group = this.groups.get(ka)!;
      return `keeps apart "${a}" and "${b}", which line ${group.line} merges; remove the name from that line to split them`;
    }
    return null;
  }

  /** Puts the names in one group shown as the first; a group one of them led comes along (it was checked to be no cycle). */
  private join(names: readonly string[], line: number): void {
    const [shown, ...others] = names as [string, ...string[]];
    const shownKey = labelKey(shown);
    const target = this.groupOf.get(shownKey) ?? shownKey;
    const group = this.groups.get(target) ?? { label: shown, line, members: new Set([target]) };
    this.groups.set(target, group);
    this.groupOf.set(target, target);
    for (const other of others) {
      const key = labelKey(other);
      const led = this.groups.get(key);
      if (led && key !== target) {
        for (const member of led.members) {
          group.members.add(member);
          this.groupOf.set(member, target);
        }
        this.groups.delete(key);
      }
      group.members.add(key);
      this.groupOf.set(key, target);
    }
    this.splitPairs = null;
  }
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** A line without its HTML comments; `open` says whether a comment runs on into the next line. */
function stripComments(line: string, open: boolean): { text: string; open: boolean } {
  let text = '';
  let rest = line;
  let inside = open;
  while (rest.length > 0) {
    if (inside) {
      const end = rest.indexOf('-->');
      if (end < 0) return { text, open: true };
      rest = rest.slice(end + 3);
      inside = false;
    } else {
      const start = rest.indexOf('<!--');
      if (start < 0) return { text: text + rest, open: false };
      text += rest.slice(0, start);
      rest = rest.slice(start + 4);
      inside = true;
    }
  }
  return { text, open: inside };
}
