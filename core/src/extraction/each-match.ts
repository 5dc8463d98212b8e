/**
 * Calls `visit` with every match of the global pattern `re` in `text`, in order: the matches
 * `text.matchAll(re)` gives, without its iterator and the copy of the pattern it compiles on
 * every call. For patterns that cannot match the empty string, and whose `lastIndex` only this
 * function moves (`visit` must not search with `re`).
 */
export const eachMatch = (re: RegExp, text: string, visit: (m: RegExpExecArray) => void): void => {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) visit(m);
  re.lastIndex = 0;
};
