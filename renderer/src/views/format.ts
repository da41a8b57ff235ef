/** Small display formatters shared by the views. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
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

/** A score for people: three decimals, or three significant digits below 0.1 (RRF gives values near 0.016). */
export function formatScore(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 0.1) return value.toFixed(3);
  return value.toPrecision(3);
}

/** A transfer rate in MB/s (the same 1024-based megabytes as `formatBytes`). */
export function formatRate(bytesPerSecond: number): string {
  const mbps = bytesPerSecond / 1024 / 1024;
  return `${mbps >= 10 ? mbps.toFixed(0) : mbps.toFixed(1)} MB/s`;
}

/** Time left, rounded the way people say it: `45 s`, `3 min 20 s`, `1 h 5 min`. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return rest === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${rest} s`;
  }
  const totalMinutes = Math.round(s / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
