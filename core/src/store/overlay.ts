/**
 * `{ ...base, ...extra }`, for code that runs for every message or event. On Node 20, V8 puts
 * the property storage of an object literal that starts with a spread and then gains keys (`{
 * ...event, position }`) straight into the old generation, which only a full collection frees:
 * a delivery path doing that for every message grew the host thread's heap by about 350 bytes a
 * message between full collections (ADR 0024). `Object.assign` onto a fresh literal does not.
 */
export const overlay = <A extends object, B extends object>(base: A, extra: B): Omit<A, keyof B> & B => Object.assign({}, base, extra);
