/** Joins the class names that are set: `classNames('a', cond && 'b')` → `'a b'` or `'a'`; none → undefined (no attribute). */
export function classNames(...names: Array<string | false | null | undefined>): string | undefined {
  const joined = names.filter(Boolean).join(' ');
  return joined === '' ? undefined : joined;
}
