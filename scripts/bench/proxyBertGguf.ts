/**
 * A BERT GGUF with Q8_0 weights (the ggml block format of the default model's QAT Q8_0 file),
 * random but seeded, for benchmarks that need a model of a real model's size (vectors768.ts).
 */
import fs from 'node:fs';
import { Rng } from './prng.js';

const GGUF_ALIGNMENT = 32;
const GGML_F32 = 0;
const GGML_Q8_0 = 8;
const Q8_BLOCK = 32;
const Q8_BLOCK_BYTES = 34;

type MetaValue =
  | { t: 'u32'; v: number }
  | { t: 'f32'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'str'; v: string }
  | { t: 'str[]'; v: readonly string[] }
  | { t: 'i32[]'; v: readonly number[] };

interface TensorSpec {
  name: string;
  /** ggml order: shape[0] is contiguous. */
  shape: readonly number[];
  type: typeof GGML_F32 | typeof GGML_Q8_0;
  /** How to fill it: random with this standard deviation, or a constant. */
  fill: { std: number } | { constant: number };
}

class Bytes {
  private parts: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.parts.push(b);
    this.length += b.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  value(m: MetaValue): void {
    switch (m.t) {
      case 'u32':
        this.u32(4);
        return this.u32(m.v);
      case 'f32':
        this.u32(6);
        return this.f32(m.v);
      case 'bool':
        this.u32(7);
        return this.push(Buffer.from([m.v ? 1 : 0]));
      case 'str':
        this.u32(8);
        return this.str(m.v);
      case 'str[]':
        this.u32(9);
        this.u32(8);
        this.u64(m.v.length);
        for (const s of m.v) this.str(s);
        return;
      case 'i32[]':
        this.u32(9);
        this.u32(5);
        this.u64(m.v.length);
        for (const n of m.v) this.i32(n);
        return;
    }
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.parts, this.length);
  }
}

const padded = (n: number): number => Math.ceil(n / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;

function tensorBytes(t: TensorSpec): number {
  const elements = t.shape.reduce((a, b) => a * b, 1);
  if (t.type === GGML_F32) return elements * 4;
  if (t.shape[0]! % Q8_BLOCK !== 0) throw new Error(`${t.name}: Q8_0 rows must be a multiple of ${Q8_BLOCK}`);
  return (elements / Q8_BLOCK) * Q8_BLOCK_BYTES;
}

/** IEEE 754 half precision bits of a float (round to nearest; scales here are small and normal). */
function toHalf(value: number): number {
  const f = new Float32Array([value]);
  const x = new Uint32Array(f.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  let exp = ((x >>> 23) & 0xff) - 127 + 15;
  let mant = x & 0x7fffff;
  if (exp <= 0) return sign; // too small for a normal half: flush to zero
  if (exp >= 31) return sign | 0x7c00;
  mant += 0x1000; // round
  if (mant & 0x800000) {
    mant = 0;
    exp++;
    if (exp >= 31) return sign | 0x7c00;
  }
  return sign | (exp << 10) | (mant >>> 13);
}

/** The bytes of one tensor: seeded uniform noise with the given standard deviation, or a constant. */
function tensorData(t: TensorSpec, rng: Rng): Buffer {
  const elements = t.shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(elements);
  if ('constant' in t.fill) values.fill(t.fill.constant);
  else {
    const half = t.fill.std * Math.sqrt(3); // uniform on [-a, a] has std a/√3
    for (let i = 0; i < elements; i++) values[i] = (rng.next() * 2 - 1) * half;
  }
  if (t.type === GGML_F32) return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const out = Buffer.alloc(tensorBytes(t));
  const q = new Int8Array(out.buffer, out.byteOffset, out.length);
  for (let b = 0, o = 0; b < elements; b += Q8_BLOCK, o += Q8_BLOCK_BYTES) {
    let amax = 0;
    for (let i = 0; i < Q8_BLOCK; i++) amax = Math.max(amax, Math.abs(values[b + i]!));
    const d = amax / 127;
    const inv = d > 0 ? 1 / d : 0;
    const h = toHalf(d);
    out[o] = h & 0xff;
    out[o + 1] = h >>> 8;
    for (let i = 0; i < Q8_BLOCK; i++) q[o + 2 + i] = Math.max(-127, Math.min(127, Math.round(values[b + i]! * inv)));
  }
  return out;
}

export interface ProxyModelOptions {
  /** Hidden size (the vector dims). */
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  contextLength: number;
  /** Q8_0 (as the default model's file) or F32 weight matrices; norms and position embeddings stay F32. */
  weights: 'q8_0' | 'f32';
  seed: number;
}

/** Writes a BERT GGUF (WordPiece vocabulary `tokens`, pieces as in STACK-NOTES.md) tensor by tensor; returns its size. */
export function writeProxyBertGguf(file: string, vocabulary: readonly string[], o: ProxyModelOptions): number {
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const tokens = [...special, ...vocabulary.filter((t) => !special.includes(t))];
  const types = tokens.map((_, i) => (i === 1 ? 2 : i < special.length ? 3 : 1));
  const { embeddingLength: E, feedForwardLength: F, contextLength: C, blockCount } = o;
  const V = tokens.length;
  const W = o.weights === 'q8_0' ? GGML_Q8_0 : GGML_F32;
  const tensors: TensorSpec[] = [
    { name: 'token_embd.weight', shape: [E, V], type: W, fill: { std: 1 } },
    { name: 'position_embd.weight', shape: [E, C], type: GGML_F32, fill: { std: 0.1 } },
    { name: 'token_types.weight', shape: [E, 2], type: GGML_F32, fill: { std: 0.1 } },
    { name: 'token_embd_norm.weight', shape: [E], type: GGML_F32, fill: { constant: 1 } },
    { name: 'token_embd_norm.bias', shape: [E], type: GGML_F32, fill: { constant: 0 } },
  ];
  const s = 1 / Math.sqrt(E);
  for (let i = 0; i < blockCount; i++) {
    tensors.push(
      { name: `blk.${i}.attn_q.weight`, shape: [E, E], type: W, fill: { std: s } },
      { name: `blk.${i}.attn_k.weight`, shape: [E, E], type: W, fill: { std: s } },
      { name: `blk.${i}.attn_v.weight`, shape: [E, E], type: W, fill: { std: s } },
      { name: `blk.${i}.attn_output.weight`, shape: [E, E], type: W, fill: { std: s } },
      { name: `blk.${i}.attn_output_norm.weight`, shape: [E], type: GGML_F32, fill: { constant: 1 } },
      { name: `blk.${i}.attn_output_norm.bias`, shape: [E], type: GGML_F32, fill: { constant: 0 } },
      { name: `blk.${i}.ffn_up.weight`, shape: [E, F], type: W, fill: { std: s } },
      { name: `blk.${i}.ffn_down.weight`, shape: [F, E], type: W, fill: { std: 1 / Math.sqrt(F) } },
      { name: `blk.${i}.layer_output_norm.weight`, shape: [E], type: GGML_F32, fill: { constant: 1 } },
      { name: `blk.${i}.layer_output_norm.bias`, shape: [E], type: GGML_F32, fill: { constant: 0 } },
    );
  }
  const metadata: Array<[string, MetaValue]> = [
    ['general.architecture', { t: 'str', v: 'bert' }],
    ['general.name', { t: 'str', v: `reverie-bench-bert-e${E}-l${blockCount}-f${F}-${o.weights}` }],
    ['bert.context_length', { t: 'u32', v: C }],
    ['bert.embedding_length', { t: 'u32', v: E }],
    ['bert.feed_forward_length', { t: 'u32', v: F }],
    ['bert.block_count', { t: 'u32', v: blockCount }],
    ['bert.attention.head_count', { t: 'u32', v: o.headCount }],
    ['bert.attention.layer_norm_epsilon', { t: 'f32', v: 1e-12 }],
    ['bert.attention.causal', { t: 'bool', v: false }],
    ['bert.pooling_type', { t: 'u32', v: 1 }],
    ['tokenizer.ggml.model', { t: 'str', v: 'bert' }],
    ['tokenizer.ggml.tokens', { t: 'str[]', v: tokens }],
    ['tokenizer.ggml.token_type', { t: 'i32[]', v: types }],
    ['tokenizer.ggml.token_type_count', { t: 'u32', v: 2 }],
    ['tokenizer.ggml.bos_token_id', { t: 'u32', v: 2 }],
    ['tokenizer.ggml.seperator_token_id', { t: 'u32', v: 3 }],
    ['tokenizer.ggml.unknown_token_id', { t: 'u32', v: 1 }],
    ['tokenizer.ggml.padding_token_id', { t: 'u32', v: 0 }],
    ['tokenizer.ggml.mask_token_id', { t: 'u32', v: 4 }],
  ];

  const head = new Bytes();
  head.push(Buffer.from('GGUF', 'latin1'));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const [key, value] of metadata) {
    head.str(key);
    head.value(value);
  }
  let offset = 0;
  for (const t of tensors) {
    head.str(t.name);
    head.u32(t.shape.length);
    for (const d of t.shape) head.u64(d);
    head.u32(t.type);
    head.u64(offset);
    offset += padded(tensorBytes(t));
  }
  head.push(Buffer.alloc(padded(head.length) - head.length));

  const rng = new Rng(o.seed);
  const fd = fs.openSync(file, 'w');
  try {
    let size = 0;
    const write = (b: Buffer): void => {
      fs.writeSync(fd, b);
      size += b.length;
    };
    write(head.toBuffer());
    for (const t of tensors) {
      const data = tensorData(t, rng);
      write(data);
      write(Buffer.alloc(padded(data.length) - data.length));
    }
    return size;
  } finally {
    fs.closeSync(fd);
  }
}
