import { Rng } from './prng.js';

/** The seed the 768-dim benchmark draws its vectors with. */
export const VECTORS_SEED = 768_768;
const TOPICS = 300;
const SUBTOPICS_PER_TOPIC = 20;
/** Sizes of a subtopic's own direction and of a note's own variation, relative to a topic's. */
const SUBTOPIC_SCALE = 0.8;
const NOTE_SCALE = 0.6;

/**
 * Deterministic unit vectors shaped like embeddings of notes (synthetic, not model output): a
 * subject, a narrower matter within it, and the note's own variation. A vector's 10 nearest
 * then share its matter (cosine ~0.8), the next ones its subject (~0.5), the rest ~0.
 */
export class SyntheticVectors {
  private rng: Rng;
  private readonly subtopics: Array<{ topic: Float32Array; own: Float32Array }>;
  /** The same `seed` gives the same subjects and matters; `drawSeed` which vectors are drawn in them. */
  constructor(seed: number, readonly dims: number, drawSeed = seed) {
    this.rng = new Rng(seed);
    const topics = Array.from({ length: TOPICS }, () => this.gaussian(1));
    this.subtopics = Array.from({ length: TOPICS * SUBTOPICS_PER_TOPIC }, (_, i) => ({ topic: topics[i % TOPICS]!, own: this.gaussian(SUBTOPIC_SCALE) }));
    if (drawSeed !== seed) this.rng = new Rng(drawSeed);
  }
  next(): Float32Array {
    const { topic, own } = this.subtopics[Math.floor(this.rng.next() * this.subtopics.length)]!;
    const noise = this.gaussian(NOTE_SCALE);
    let sum = 0;
    for (let i = 0; i < this.dims; i++) {
      noise[i] = noise[i]! + topic[i]! + own[i]!;
      sum += noise[i]! * noise[i]!;
    }
    const inv = 1 / Math.sqrt(sum);
    for (let i = 0; i < this.dims; i++) noise[i] = noise[i]! * inv;
    return noise;
  }
  private gaussian(scale: number): Float32Array {
    const v = new Float32Array(this.dims);
    for (let i = 0; i < this.dims; i++) v[i] = scale * Math.sqrt(-2 * Math.log(1 - this.rng.next())) * Math.cos(2 * Math.PI * this.rng.next());
    return v;
  }
}
