/**
 * How deep a JSON request body may nest at most: objects and arrays inside one another, the body
 * itself being level 1. Far above anything the API's own bodies use; it keeps every walk over user
 * JSON (validation, fingerprints, logs) from running out of stack.
 */
export const MAX_BODY_DEPTH = 64;

/** How deep `metadata` may nest: the metadata object itself is level 1. */
export const MAX_METADATA_DEPTH = 16;

const isScalar = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * What is wrong with `value` as JSON nested at most `limit` levels deep (an object or array is
 * level 1, a scalar level 0): `too_deep`, `not_json` (undefined, a function, a non-finite number,
 * a class instance…), or `undefined` when nothing is. Iterative, so a value nested far deeper than
 * the stack allows is judged as safely as any.
 */
export const jsonProblem = (value: unknown, limit: number): 'too_deep' | 'not_json' | undefined => {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (isScalar(current)) continue;
    if (typeof current !== 'object' || current === null || !(Array.isArray(current) || isPlainObject(current))) return 'not_json';
    if (depth > limit) return 'too_deep';
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return undefined;
};

/** Whether `value` nests objects and arrays at most `limit` levels deep, whatever its scalars. */
export const nestsWithin = (value: unknown, limit: number): boolean => {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return false;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return true;
};
