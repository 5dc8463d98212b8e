/** True for an ASCII letter, either case. */
export const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** True for an ASCII digit. */
export const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;
