/** Small display formatters shared by the views. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const isToday = date.toDateString() === new Date().toDateString();
  return isToday ? date.toLocaleTimeString() : date.toLocaleString();
}

/** The citation form used everywhere: `path:start-end` (1-based, inclusive). */
export function formatCitation(path: string, startLine: number, endLine: number): string {
  return `${path}:${startLine}-${endLine}`;
}
