/** Requests larger than this are refused (the rest of the line is skipped; the connection lives on). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

export type SplitLine = { kind: 'line'; text: string } | { kind: 'too-large'; bytes: number };

/**
 * Newline-delimited framing with a size bound: yields whole lines, and a `too-large` marker
 * (once per oversized line) instead of buffering megabytes a client should not send.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;
  private discarded = 0;

  push(chunk: Buffer): SplitLine[] {
    const out: SplitLine[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (this.discarding) this.discarded += piece.length;
      else if (this.size + piece.length > MAX_REQUEST_BYTES) {
        this.discarding = true;
        this.discarded = this.size + piece.length;
        this.parts = [];
        this.size = 0;
      } else {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (newline === -1) break;
      if (this.discarding) out.push({ kind: 'too-large', bytes: this.discarded });
      else {
        const text = Buffer.concat(this.parts).toString('utf8').trim();
        if (text) out.push({ kind: 'line', text });
      }
      this.parts = [];
      this.size = 0;
      this.discarding = false;
      this.discarded = 0;
      start = newline + 1;
    }
    return out;
  }
}
