#!/usr/bin/env node
// Draws Reverie's icons and writes them as PNG files, using only Node built-ins (zlib for
// the deflate stream, a table CRC-32 for the chunk checksums). The mark: a rounded square
// in deep indigo with a pale crescent moon and two small stars ("reverie": dreaming).
//
//   node scripts/make-icons.mjs [OUTPUT_ROOT]
//
// OUTPUT_ROOT defaults to the repository's resources/ folder. The PNGs are committed; run
// this again only after changing the drawing. Output is deterministic (raw pixels, filter 0).
//
// Writes (paths relative to OUTPUT_ROOT):
//   build/icon.png               1024×1024  electron-builder: macOS .icns and Windows .ico source
//   build/icons/NxN.png          16…512     electron-builder: the Linux icon set (hicolor sizes)
//   icons/tray.png, tray@2x.png  32, 64     the tray icon the Electron main process loads
//   icons/trayTemplate.png, trayTemplate@2x.png  32, 64  black-and-alpha variant for the macOS menu bar
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- PNG encoding -------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buffers) {
  let c = 0xffffffff;
  for (const buf of buffers) for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const name = Buffer.from(type, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([name, data]));
  return Buffer.concat([length, name, data, crc]);
}

/** Encodes straight (non-premultiplied) RGBA pixels, 8 bits per channel, as a PNG file. */
function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type: RGBA
  ihdr[10] = 0; // compression: deflate
  ihdr[11] = 0; // filter method 0
  ihdr[12] = 0; // no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter type: none
    rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- Drawing ------------------------------------------------------------------------------
// Shapes are described in unit coordinates (0..1, y down). Each pixel is sampled on an n×n
// grid and colours are composited "over" per sample, which gives clean anti-aliased edges.

const INDIGO_TOP = [67, 56, 202]; // indigo-700
const INDIGO_BOTTOM = [30, 27, 75]; // indigo-950
const MOON = [254, 243, 199]; // amber-100
const STAR = [224, 231, 255]; // indigo-100

function insideRoundedSquare(x, y, margin, radius) {
  const lo = margin + radius;
  const hi = 1 - margin - radius;
  const dx = x < lo ? lo - x : x > hi ? x - hi : 0;
  const dy = y < lo ? lo - y : y > hi ? y - hi : 0;
  if (x < margin || x > 1 - margin || y < margin || y > 1 - margin) return false;
  return dx * dx + dy * dy <= radius * radius;
}

const inCircle = (x, y, cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

function insideCrescent(x, y) {
  return inCircle(x, y, 0.46, 0.53, 0.27) && !inCircle(x, y, 0.575, 0.43, 0.225);
}

/** A four-pointed sparkle: |dx|^p + |dy|^p <= r^p with p < 1 gives concave sides. */
function insideSparkle(x, y, cx, cy, r) {
  const p = 0.55;
  return Math.abs(x - cx) ** p + Math.abs(y - cy) ** p <= r ** p;
}

/** Returns [r, g, b, a] (0..1 alpha) for a sample of the full-colour mark. */
function sampleMark(x, y, { stars }) {
  const margin = 0.07;
  if (!insideRoundedSquare(x, y, margin, 0.2)) return null;
  if (insideCrescent(x, y)) {
    const t = Math.min(1, Math.max(0, (y - 0.26) / 0.54));
    return [MOON[0], MOON[1] - 14 * t, MOON[2] - 40 * t, 1];
  }
  if (stars && (insideSparkle(x, y, 0.72, 0.3, 0.075) || insideSparkle(x, y, 0.79, 0.55, 0.045))) return [...STAR, 1];
  const t = Math.min(1, Math.max(0, (y - margin) / (1 - 2 * margin)));
  return [0, 1, 2].map((i) => INDIGO_TOP[i] + (INDIGO_BOTTOM[i] - INDIGO_TOP[i]) * t).concat(1);
}

/** macOS menu-bar "template" image: only alpha matters, colour is black. */
function sampleTemplate(x, y) {
  if (insideCrescent(x, y) || insideSparkle(x, y, 0.76, 0.28, 0.1)) return [0, 0, 0, 1];
  return null;
}

function render(size, sample, samplesPerAxis = 4) {
  const out = Buffer.alloc(size * size * 4);
  const n = samplesPerAxis;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = sample((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!c) continue;
          r += c[0] * c[3];
          g += c[1] * c[3];
          b += c[2] * c[3];
          a += c[3];
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
      }
      out[i + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return out;
}

// ---- Output -------------------------------------------------------------------------------

export const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];

function main() {
  const outRoot = path.resolve(process.argv[2] ?? path.join(root, 'resources'));
  const write = (relative, size, sample) => {
    const file = path.join(outRoot, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, encodePng(size, size, render(size, sample)));
    console.error(`make-icons: ${path.relative(process.cwd(), file)} (${size}×${size})`);
  };
  const mark = (size) => (x, y) => sampleMark(x, y, { stars: size >= 32 });
  write('build/icon.png', 1024, mark(1024));
  for (const size of LINUX_ICON_SIZES) write(`build/icons/${size}x${size}.png`, size, mark(size));
  write('icons/tray.png', 32, mark(32));
  write('icons/tray@2x.png', 64, mark(64));
  write('icons/trayTemplate.png', 32, sampleTemplate);
  write('icons/trayTemplate@2x.png', 64, sampleTemplate);
}

main();
