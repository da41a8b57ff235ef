/**
 * `[[wiki-links]]` between notes: how one is written and which file it opens. One rule for the
 * engine (backlinks) and the window (links, `[[` completion), so both agree on every link.
 */

/** `[[Target]]` or `[[Target|shown text]]` on one line; group 1 is the target, group 2 the shown text. */
export const WIKI_LINK_PATTERN = /\[\[([^[\]|\n]{1,300})(?:\|([^[\]\n]{1,300}))?\]\]/g;

const withoutMd = (name: string): string => name.toLowerCase().replace(/\.md$/, '');

/**
 * The memory file a wiki-link names, case-insensitive, `.md` optional: a workspace path
 * (`memory/projects/tax`), a path under memory/ (`projects/tax`), or a file name (`tax`; when two
 * notes share it, the first in `paths`, which is path order).
 */
export function resolveWikiLink(target: string, paths: readonly string[]): string | null {
  const wanted = withoutMd(target.trim());
  const exact = paths.find((p) => withoutMd(p) === wanted) ?? paths.find((p) => withoutMd(p) === `memory/${wanted}`);
  if (exact) return exact;
  return paths.find((p) => withoutMd(p.split('/').at(-1) ?? p) === wanted) ?? null;
}

/**
 * Why a link target cannot be a note in this workspace (an absolute path, a `..` step, a
 * drive or a backslash path), as a sentence for the person; null when it can be.
 */
export function wikiLinkOutsideWorkspace(target: string): string | null {
  const name = target.trim();
  const isOutside = name.startsWith('/') || name.startsWith('~') || /^[a-z]:/i.test(name) || name.includes('\\') || name.split('/').some((step) => step === '..');
  return isOutside ? `“${name}” points outside the workspace: a wiki-link can only open a note inside it (like [[projects/tax]]).` : null;
}
