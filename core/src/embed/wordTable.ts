/**
 * The hash embedding's words (hashProvider.ts), interned: each word's features are worked out
 * once, and a text's words are found by the hash of their characters, read straight from the
 * text, without making a string per word. Counts are kept per text on the entries themselves
 * (stamped with the text's number), in the order the words first appear: the order the features
 * are added in, which is what keeps the floats the same.
 */
export interface WordEntry {
  readonly hash: number;
  /** Lowercased. */
  readonly word: string;
  /** Stopwords are interned too (so they are recognised without a string) but add nothing. */
  readonly stopword: boolean;
  /** The stem's signed slot (≥ 0: add at that dimension; < 0: subtract at ~slot). */
  readonly wordSlot: number;
  /** Each trigram's signed slot. */
  readonly grams: Int32Array;
  /** √max(1, trigrams): what a trigram's share of the word's weight is divided by. */
  readonly gramsRoot: number;
  /** Which text last counted this word, and how often it appeared there. */
  seenIn: number;
  count: number;
}

export const WORD_HASH_START = 0x811c9dc5;

/** One step of the words' hash (FNV-1a over UTF-16 code units). */
export function wordHashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

const INITIAL_CAPACITY = 1 << 12;

export class WordTable {
  /** Entry index + 1 per slot (0: empty), open addressing with linear probing. */
  private slots = new Int32Array(INITIAL_CAPACITY);
  private entries: WordEntry[] = [];
  private text = 0;
  /** The words the current text counted, in order of first appearance. */
  readonly counted: WordEntry[] = [];

  constructor(
    private readonly maxWords: number,
    private readonly makeEntry: (word: string, hash: number) => WordEntry,
  ) {}

  /** Starts counting a new text's words; forgets every word once the table is full (words of one text are never forgotten mid-text). */
  beginText(): void {
    if (this.entries.length >= this.maxWords) {
      this.entries = [];
      this.slots = new Int32Array(INITIAL_CAPACITY);
    }
    this.text++;
    this.counted.length = 0;
  }

  /** Counts the word at text[start, end), whose ASCII letters are lowercased and whose hash (over the lowercased code units) is `hash`. */
  countAsciiWord(text: string, start: number, end: number, hash: number): void {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.slots[slot]!;
      if (index === 0) {
        this.count(this.insert(slot, text.slice(start, end).toLowerCase(), hash));
        return;
      }
      const entry = this.entries[index - 1]!;
      if (entry.hash === hash && entry.word.length === length && sameLowercased(entry.word, text, start)) {
        this.count(entry);
        return;
      }
    }
  }

  /** Counts a word already made a string (lowercased). */
  countWord(word: string): void {
    let hash = WORD_HASH_START;
    for (let i = 0; i < word.length; i++) hash = wordHashStep(hash, word.charCodeAt(i));
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const index = this.slots[slot]!;
      const entry = index === 0 ? this.insert(slot, word, hash) : this.entries[index - 1]!;
      if (index === 0 || (entry.hash === hash && entry.word === word)) {
        this.count(entry);
        return;
      }
    }
  }

  private count(entry: WordEntry): void {
    if (entry.stopword) return;
    if (entry.seenIn !== this.text) {
      entry.seenIn = this.text;
      entry.count = 1;
      this.counted.push(entry);
    } else entry.count++;
  }

  private insert(slot: number, word: string, hash: number): WordEntry {
    const entry = this.makeEntry(word, hash);
    this.entries.push(entry);
    this.slots[slot] = this.entries.length;
    if (this.entries.length * 2 > this.slots.length) this.grow();
    return entry;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    this.entries.forEach((entry, i) => {
      let slot = entry.hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    });
    this.slots = slots;
  }
}

/** Whether text[start, start + word.length), its ASCII capitals lowercased, is `word`. */
function sameLowercased(word: string, text: string, start: number): boolean {
  for (let k = 0; k < word.length; k++) {
    let c = text.charCodeAt(start + k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== word.charCodeAt(k)) return false;
  }
  return true;
}
