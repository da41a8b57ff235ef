/** Typed record ids (`chunk:42`): the prefix names the table, so an id explains itself. */
export type RecordKind = 'chunk' | 'file';
export type RecordId<K extends RecordKind> = `${K}:${string}`;

export function makeId<K extends RecordKind>(kind: K, key: string | number | bigint): RecordId<K> {
  return `${kind}:${key}`;
}

export function parseId<K extends RecordKind>(kind: K, id: string): string | null {
  const prefix = `${kind}:`;
  return id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : null;
}
