import { describe, expect, it } from 'vitest';
import { unpackedPath } from '../src/index/vectorStore.js';

describe('sqlite-vec path in a packaged app', () => {
  it('points into app.asar.unpacked, where electron-builder puts native files', () => {
    expect(unpackedPath('/opt/Reverie/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe('/opt/Reverie/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so');
    expect(unpackedPath('C:\\Reverie\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll')).toBe('C:\\Reverie\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll');
    expect(unpackedPath('/work/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe('/work/node_modules/sqlite-vec-linux-x64/vec0.so');
  });
});
