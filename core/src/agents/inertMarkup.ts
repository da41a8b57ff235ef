/**
 * Reverie reads metadata out of HTML comments: `<!-- importance: N -->`, `<!-- trigger: … -->`,
 * `<!-- project: … -->`, `<!-- status: … -->`, promotion and lineage markers. An agent's note
 * must not set any of them for itself, so every comment opener in its text is escaped to
 * `<\!--`: no parser sees a comment, Markdown still shows `<!--`, and not a character the
 * agent sent is lost.
 */
const COMMENT_OPENER = /<!--/g;

export function inertMarkup(text: string): string {
  return text.replace(COMMENT_OPENER, '<\\!--');
}
