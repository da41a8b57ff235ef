/**
 * Reads a GGUF file's header, metadata and tensor table in plain TypeScript, so a file that
 * is not a model, is cut short or is not an embedding model is rejected with a clear
 * message before llama.cpp sees it (llama.cpp may abort the whole process on a bad file).
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md (versions 2 and 3).
 */
import fs from 'node:fs/promises';
import { ReverieError, errnoCode } from '../../platform/errors.js';

export interface GgufSummary {
  path: string;
  version: number;
  fileSize: number;
  architecture: string;
  name: string | undefined;
  embeddingLength: number | undefined;
  contextLength: number | undefined;
  /** llama.cpp pooling: 0 none, 1 mean, 2 cls, 3 last, 4 rank; undefined when the file does not say. */
  poolingType: number | undefined;
  causalAttention: boolean | undefined;
  tensorCount: number;
  /** Why this is not an embedding model, or undefined when it is one. */
  notEmbeddingReason: string | undefined;
}

/** Encoder-only architectures: llama.cpp pools their output into one vector per text. */
const ENCODER_ARCHITECTURES = new Set([
  'bert', 'modern-bert', 'nomic-bert', 'nomic-bert-moe', 'neo-bert', 'jina-bert-v2', 'jina-bert-v3', 'eurobert', 't5encoder', 'gemma-embedding',
]);
const POOLING_MEAN_CLS_LAST = new Set([1, 2, 3]);
const POOLING_RANK = 4;

// [elements per block, bytes per block] of the ggml tensor types whose sizes are certain;
// tensors of other types are checked only for starting inside the file.
const GGML_BLOCK_SIZES: ReadonlyMap<number, readonly [number, number]> = new Map([
  [0, [1, 4]], [1, [1, 2]], [2, [32, 18]], [3, [32, 20]], [6, [32, 22]], [7, [32, 24]], [8, [32, 34]], [9, [32, 36]],
  [10, [256, 84]], [11, [256, 110]], [12, [256, 144]], [13, [256, 176]], [14, [256, 210]], [15, [256, 292]],
  [24, [1, 1]], [25, [1, 2]], [26, [1, 4]], [27, [1, 8]], [28, [1, 8]], [30, [1, 2]],
]);

// GGUF metadata value types.
const ValueType = { U8: 0, I8: 1, U16: 2, I16: 3, U32: 4, I32: 5, F32: 6, Bool: 7, String: 8, Array: 9, U64: 10, I64: 11, F64: 12 } as const;
type ValueType = number;
const FIXED_SIZES: Readonly<Record<number, number>> = {
  [ValueType.U8]: 1, [ValueType.I8]: 1, [ValueType.Bool]: 1, [ValueType.U16]: 2, [ValueType.I16]: 2,
  [ValueType.U32]: 4, [ValueType.I32]: 4, [ValueType.F32]: 4, [ValueType.U64]: 8, [ValueType.I64]: 8, [ValueType.F64]: 8,
};
const MAX_STRING_BYTES = 1 << 24;
const CHUNK_BYTES = 1 << 20;

class TruncatedError extends Error {}
class DamagedError extends Error {}

/** Sequential little-endian reads over a file, loaded in 1 MiB chunks as they are needed. */
class FileCursor {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  position = 0;

  constructor(
    private readonly file: fs.FileHandle,
    readonly size: number,
  ) {}

  private async ensure(n: number): Promise<void> {
    if (this.position + n > this.size) throw new TruncatedError();
    const end = this.bufferStart + this.buffer.length;
    if (this.position >= this.bufferStart && this.position + n <= end) return;
    const length = Math.min(Math.max(n, CHUNK_BYTES), this.size - this.position);
    const next = Buffer.alloc(length);
    const { bytesRead } = await this.file.read(next, 0, length, this.position);
    if (bytesRead < n) throw new TruncatedError();
    this.buffer = next.subarray(0, bytesRead);
    this.bufferStart = this.position;
  }
  private async take(n: number): Promise<number> {
    await this.ensure(n);
    const at = this.position - this.bufferStart;
    this.position += n;
    return at;
  }
  async u32(): Promise<number> {
    return this.buffer.readUInt32LE(await this.take(4));
  }
  async u64(): Promise<number> {
    const v = this.buffer.readBigUInt64LE(await this.take(8));
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new DamagedError(`a size field holds an impossible value (${v})`);
    return Number(v);
  }
  async bytes(n: number): Promise<Buffer> {
    const at = await this.take(n);
    return this.buffer.subarray(at, at + n);
  }
  async string(): Promise<string> {
    const length = await this.u64();
    if (length > MAX_STRING_BYTES) throw new DamagedError(`a text field claims to be ${length} bytes long`);
    return (await this.bytes(length)).toString('utf8');
  }
  async skip(n: number): Promise<void> {
    if (this.position + n > this.size) throw new TruncatedError();
    this.position += n;
  }
}

type MetadataValue = number | bigint | boolean | string | undefined;

async function readScalar(cursor: FileCursor, type: ValueType): Promise<MetadataValue> {
  switch (type) {
    case ValueType.U8: return (await cursor.bytes(1)).readUInt8(0);
    case ValueType.I8: return (await cursor.bytes(1)).readInt8(0);
    case ValueType.U16: return (await cursor.bytes(2)).readUInt16LE(0);
    case ValueType.I16: return (await cursor.bytes(2)).readInt16LE(0);
    case ValueType.U32: return cursor.u32();
    case ValueType.I32: return (await cursor.bytes(4)).readInt32LE(0);
    case ValueType.F32: return (await cursor.bytes(4)).readFloatLE(0);
    case ValueType.Bool: return (await cursor.bytes(1)).readUInt8(0) !== 0;
    case ValueType.String: return cursor.string();
    case ValueType.U64: return (await cursor.bytes(8)).readBigUInt64LE(0);
    case ValueType.I64: return (await cursor.bytes(8)).readBigInt64LE(0);
    case ValueType.F64: return (await cursor.bytes(8)).readDoubleLE(0);
    default: throw new DamagedError(`unknown metadata value type ${type}`);
  }
}

/** Reads one value; arrays are skipped (returned as undefined): only scalars are needed here. */
async function readValue(cursor: FileCursor, type: ValueType, key: string): Promise<MetadataValue> {
  if (type !== ValueType.Array) return readScalar(cursor, type);
  const elementType = await cursor.u32();
  const count = await cursor.u64();
  const fixed = FIXED_SIZES[elementType];
  if (fixed !== undefined) await cursor.skip(fixed * count);
  else if (elementType === ValueType.String) for (let i = 0; i < count; i++) await cursor.skip(await cursor.u64());
  else throw new DamagedError(`metadata key "${key}" holds an array of unsupported type ${elementType}`);
  return undefined;
}

const toNumber = (v: MetadataValue): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

async function readSummary(file: fs.FileHandle, filePath: string, size: number): Promise<GgufSummary> {
  const cursor = new FileCursor(file, size);
  if (size < 4 || (await cursor.bytes(4)).toString('latin1') !== 'GGUF') {
    throw new ReverieError('invalid-input', `The model file ${filePath} is not a GGUF model file (it does not start with the GGUF signature).`);
  }
  const version = await cursor.u32();
  if (version !== 2 && version !== 3) {
    throw new ReverieError('invalid-input', `The model file ${filePath} uses GGUF version ${version}, which is not supported (expected version 2 or 3).`);
  }
  const tensorCount = await cursor.u64();
  const keyCount = await cursor.u64();
  if (tensorCount > size || keyCount > size) throw new DamagedError('the header claims more entries than the file can hold');

  const metadata = new Map<string, MetadataValue>();
  for (let i = 0; i < keyCount; i++) {
    const key = await cursor.string();
    metadata.set(key, await readValue(cursor, await cursor.u32(), key));
  }
  const alignment = toNumber(metadata.get('general.alignment')) ?? 32;
  if (alignment <= 0 || alignment % 8 !== 0) throw new DamagedError(`general.alignment is ${alignment}`);

  const tensors: Array<{ name: string; elements: number; type: number; offset: number }> = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = await cursor.string();
    const dimensions = await cursor.u32();
    if (dimensions > 8) throw new DamagedError(`tensor "${name}" claims ${dimensions} dimensions`);
    let elements = 1;
    for (let d = 0; d < dimensions; d++) elements *= await cursor.u64();
    tensors.push({ name, elements, type: await cursor.u32(), offset: await cursor.u64() });
  }
  const dataStart = Math.ceil(cursor.position / alignment) * alignment;
  for (const t of tensors) {
    const block = GGML_BLOCK_SIZES.get(t.type);
    const bytes = block ? Math.ceil(t.elements / block[0]) * block[1] : 1;
    if (dataStart + t.offset + bytes > size) throw new TruncatedError();
  }

  const architecture = metadata.get('general.architecture');
  if (typeof architecture !== 'string' || architecture === '') {
    throw new ReverieError('invalid-input', `The model file ${filePath} does not say which architecture it is (general.architecture is missing).`);
  }
  const poolingType = toNumber(metadata.get(`${architecture}.pooling_type`));
  const causal = metadata.get(`${architecture}.attention.causal`);
  const summary: GgufSummary = {
    path: filePath,
    version,
    fileSize: size,
    architecture,
    name: typeof metadata.get('general.name') === 'string' ? (metadata.get('general.name') as string) : undefined,
    embeddingLength: toNumber(metadata.get(`${architecture}.embedding_length`)),
    contextLength: toNumber(metadata.get(`${architecture}.context_length`)),
    poolingType,
    causalAttention: typeof causal === 'boolean' ? causal : undefined,
    tensorCount,
    notEmbeddingReason: undefined,
  };
  summary.notEmbeddingReason = whyNotAnEmbeddingModel(summary);
  return summary;
}

function whyNotAnEmbeddingModel(s: GgufSummary): string | undefined {
  if (s.poolingType === POOLING_RANK) return `it is a reranking model (architecture "${s.architecture}", rank pooling)`;
  if (s.poolingType !== undefined && POOLING_MEAN_CLS_LAST.has(s.poolingType)) return undefined;
  if (ENCODER_ARCHITECTURES.has(s.architecture)) return undefined;
  return `architecture "${s.architecture}" is a text-generation model and the file declares no embedding pooling`;
}

/**
 * The header of a GGUF model file. Throws a `ReverieError` naming the file when it is missing,
 * not GGUF, cut short, of an unsupported version, or (with `expect: 'embedding'`) not an
 * embedding model.
 */
export async function inspectGguf(filePath: string, expect: 'embedding' | 'any' = 'embedding'): Promise<GgufSummary> {
  let file: fs.FileHandle;
  try {
    file = await fs.open(filePath, 'r');
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') throw new ReverieError('not-found', `The model file ${filePath} does not exist.`);
    throw new ReverieError('invalid-input', `The model file ${filePath} cannot be read (${code ?? String(error)}).`);
  }
  let summary: GgufSummary;
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw new ReverieError('invalid-input', `The model path ${filePath} is not a file.`);
    summary = await readSummary(file, filePath, stat.size);
  } catch (error) {
    if (error instanceof TruncatedError) {
      throw new ReverieError('invalid-input', `The model file ${filePath} is truncated: it ends before the data its header describes (an incomplete download?).`);
    }
    if (error instanceof DamagedError) throw new ReverieError('invalid-input', `The model file ${filePath} is damaged: ${error.message}.`);
    throw error;
  } finally {
    await file.close();
  }
  if (expect === 'embedding' && summary.notEmbeddingReason) {
    throw new ReverieError('invalid-input', `The model file ${filePath} is not an embedding model: ${summary.notEmbeddingReason}.`);
  }
  return summary;
}
