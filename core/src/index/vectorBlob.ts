/**
 * How a vector is stored in a BLOB. Dense: the Float32Array's bytes. Sparse, when smaller: a hash
 * vector of a short entry (a Hermes `§` line) fills a few dozen of its 384 dimensions, and writing
 * 1.5 KB of zeros per entry was a large share of a 2 MB import. Both decode the same way.
 *
 * Sparse layout (little-endian): u32 SPARSE_MARKER, u16 dims, u16 count, count × u16 index,
 * padding to 4 bytes, count × f32 value. The marker is a NaN bit pattern, which a stored vector
 * (unit length, or zero) never starts with, so old dense blobs still read as dense.
 */
const SPARSE_MARKER = 0xffffffff;
const HEADER_BYTES = 8;

export function floatsToBlob(v: Float32Array): Buffer {
  let count = 0;
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) count++;
  const valuesAt = HEADER_BYTES + align4(2 * count);
  const sparseBytes = valuesAt + 4 * count;
  if (v.length > 0xffff || sparseBytes >= v.byteLength) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const blob = Buffer.alloc(sparseBytes);
  blob.writeUInt32LE(SPARSE_MARKER, 0);
  blob.writeUInt16LE(v.length, 4);
  blob.writeUInt16LE(count, 6);
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    if (v[i] === 0) continue;
    blob.writeUInt16LE(i, HEADER_BYTES + 2 * n);
    blob.writeFloatLE(v[i]!, valuesAt + 4 * n);
    n++;
  }
  return blob;
}

export function blobToFloats(b: Buffer): Float32Array {
  if (b.byteLength >= HEADER_BYTES && b.readUInt32LE(0) === SPARSE_MARKER) {
    const out = new Float32Array(b.readUInt16LE(4));
    const count = b.readUInt16LE(6);
    const valuesAt = HEADER_BYTES + align4(2 * count);
    for (let n = 0; n < count; n++) out[b.readUInt16LE(HEADER_BYTES + 2 * n)] = b.readFloatLE(valuesAt + 4 * n);
    return out;
  }
  // Copy: a Buffer's offset into its pool need not be 4-byte aligned.
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

function align4(bytes: number): number {
  return (bytes + 3) & ~3;
}
