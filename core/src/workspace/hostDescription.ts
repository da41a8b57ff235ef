import type { HostInfo } from '../contract/index.js';

/** How a host is named to the person ("the Reverie desktop app", "`reverie serve`"). */
export function describeHost(host: HostInfo): string {
  return host.kind === 'desktop' ? 'the Reverie desktop app' : `\`reverie ${host.kind}\``;
}
