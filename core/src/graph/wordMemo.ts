/**
 * A pure function of one word or name, remembered: extraction asks about the same few thousand
 * words (a name word? a known name? furniture?) for every mention of every note. Emptied when
 * full and longer words not kept, so memory stays bounded on any workspace.
 */
export function rememberedByWord<T extends NonNullable<unknown> | null>(compute: (word: string) => T): (word: string) => T {
  const known = new Map<string, T>();
  return (word) => {
    const remembered = known.get(word);
    if (remembered !== undefined) return remembered;
    const value = compute(word);
    if (word.length <= REMEMBERED_WORD_MAX) {
      if (known.size >= REMEMBERED_LIMIT) known.clear();
      known.set(word, value);
    }
    return value;
  };
}

const REMEMBERED_LIMIT = 20_000;
const REMEMBERED_WORD_MAX = 80;
