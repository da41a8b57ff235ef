import type { DownloadProgress } from '../../store/modelsSlice.js';
import { formatBytes, formatEta, formatRate } from '../format.js';

/** One line for a model download: `12.0 MB of 300.0 MB · 4.2 MB/s · 1 min 9 s left`. */
export function downloadSummary(download: DownloadProgress): string {
  if (download.done) return `Downloaded ${formatBytes(download.total ?? download.bytes)}`;
  const parts = [download.total ? `${formatBytes(download.bytes)} of ${formatBytes(download.total)}` : `${formatBytes(download.bytes)} so far`];
  if (download.rate > 0) parts.push(formatRate(download.rate));
  if (download.etaSeconds !== null && download.rate > 0) parts.push(`${formatEta(download.etaSeconds)} left`);
  return parts.join(' · ');
}

/** Embedded chunks as `1,234 / 5,000 chunks (25%)`. */
export function embeddedSummary(done: number, total: number): string {
  const percent = total > 0 ? ` (${Math.floor((done / total) * 100)}%)` : '';
  return `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} chunks${percent}`;
}
