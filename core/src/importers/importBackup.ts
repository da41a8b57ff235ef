import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../platform/hash.js';
import { writeFileAtomically } from '../platform/safeWrite.js';

export interface BackedUpFile {
  destination: string;
  backupPath: string;
  sha256: string;
}

/** `<dataDir>/backups/imports/<timestamp>/`: one folder per apply that replaced something. */
export function importBackupDir(dataDir: string, id: string): string {
  return path.join(dataDir, 'backups', 'imports', id);
}

/**
 * Copies an existing workspace file into the backup folder and reads the copy back: the
 * replacement goes ahead only once the copy's checksum matches the original.
 */
export function backUpFile(workspaceRoot: string, backupDir: string, destination: string): BackedUpFile {
  const original = fs.readFileSync(path.join(workspaceRoot, ...destination.split('/')));
  const sha256 = sha256Hex(original);
  const backupPath = path.join(backupDir, ...destination.split('/'));
  fs.mkdirSync(path.dirname(backupPath), { recursive: true });
  writeFileAtomically(backupPath, original);
  const copied = sha256Hex(fs.readFileSync(backupPath));
  if (copied !== sha256) throw new Error(`backup of ${destination} does not match the original (checksum ${copied} ≠ ${sha256})`);
  return { destination, backupPath, sha256 };
}

/** A manifest beside the backups, so a person (or a restore command) can check them later. */
export function writeBackupManifest(backupDir: string, files: readonly BackedUpFile[]): void {
  writeFileAtomically(path.join(backupDir, 'manifest.json'), JSON.stringify({ files }, null, 2) + '\n');
}
