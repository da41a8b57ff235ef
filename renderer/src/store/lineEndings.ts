/**
 * The editor works in "\n" (CodeMirror normalises line breaks). A note written with "\r\n"
 * throughout is saved with "\r\n" again, so the lines the person did not touch keep their bytes.
 * A note that mixes both is saved as edited: there is no single ending to keep.
 */
export function inLineEndingsOf(original: string, edited: string): string {
  const crlf = original.split('\r\n').length - 1;
  if (crlf === 0 || crlf !== original.split('\n').length - 1) return edited;
  return edited.replace(/\r?\n/g, '\r\n');
}
