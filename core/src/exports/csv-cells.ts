/**
 * A cell a spreadsheet would read as a formula (or as the start of one once it trims a leading
 * tab or CR) gets a leading apostrophe, as OWASP advises for CSV injection: labels, metadata and
 * mail subjects come from anyone, and `=HYPERLINK(...)` in an export is an attack on whoever
 * opens it. The apostrophe shows in the cell's text, which is the point: nothing is evaluated.
 * Full-width forms are included because some spreadsheets normalise them to the ASCII signs.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export const guardFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/**
 * The text of one CSV cell: strings as they are, numbers and booleans in their JSON form, null
 * and absent as the empty cell, objects and arrays as JSON; then the formula guard. A negative
 * number is data, not a formula, and is written as it is.
 */
export const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return guardFormula(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return guardFormula(JSON.stringify(value));
};

/** The cells of one row, in the order of `columns`. */
export const csvCells = (row: object, columns: readonly string[]): string[] => {
  const fields = row as Readonly<Record<string, unknown>>;
  const cells = new Array<string>(columns.length);
  for (let i = 0; i < columns.length; i += 1) cells[i] = csvCell(fields[columns[i]!]);
  return cells;
};
