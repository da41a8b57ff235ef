import type { SyncProgress } from '../index/sync.js';

/** With --json, stdout carries exactly one compact JSON value; everything else goes to stderr. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

export function info(message: string): void {
  process.stderr.write(message + '\n');
}

/** A progress bar on a terminal, plain occasional lines otherwise; always on stderr. */
export function createProgressReporter(): { update(p: SyncProgress): void; done(): void } {
  const isTty = Boolean(process.stderr.isTTY);
  let lastLine = 0;
  let drewBar = false;
  return {
    update(p) {
      if (p.phase === 'discover' || p.total === 0) return;
      const label = { index: 'indexing', sessions: 'transcripts', embed: 'embedding', migrate: 'upgrading the index' }[p.phase];
      const unit = p.phase === 'embed' || p.phase === 'migrate' ? 'chunks' : 'files';
      if (isTty) {
        const width = 28;
        const filled = Math.round((p.done / p.total) * width);
        const name = p.path ? ` ${p.path.length > 40 ? '…' + p.path.slice(-39) : p.path}` : '';
        process.stderr.write(`\r\x1b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total}${name}`);
        drewBar = true;
      } else {
        const now = Date.now();
        if (now - lastLine >= 1000 || (p.done === p.total && p.phase !== 'embed')) {
          lastLine = now;
          process.stderr.write(`${label} ${p.done}/${p.total} ${unit}\n`);
        }
      }
    },
    done() {
      if (isTty && drewBar) process.stderr.write('\r\x1b[2K');
    },
  };
}
