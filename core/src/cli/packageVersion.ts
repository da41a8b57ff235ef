import fs from 'node:fs';
import path from 'node:path';
import { findPackageRoot } from '../platform/packageRoot.js';

/** Reverie's version from package.json (`reverie --version`, the MCP server's version). */
export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
