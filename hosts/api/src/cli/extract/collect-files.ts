import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** One input to process: the path as it will be printed, or the reason it cannot be read. */
export type InputFile = { readonly path: string } | { readonly path: string; readonly error: string };

const reason = (e: unknown): string => {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
};

/** `.eml` files under a directory, recursively, in a stable (sorted) order. */
const walk = async (dir: string): Promise<InputFile[]> => {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    return [{ path: dir, error: reason(e) }];
  }
  const out: InputFile[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.eml')) out.push({ path });
  }
  return out;
};

/**
 * Expands the arguments in order: a file is taken as given (whatever its extension), a
 * directory contributes its `.eml` files recursively, and a path that cannot be read becomes
 * an entry with the reason, so every argument shows up in the output.
 */
export const collectFiles = async (args: readonly string[]): Promise<InputFile[]> => {
  const out: InputFile[] = [];
  for (const arg of args) {
    try {
      const info = await stat(arg);
      out.push(...(info.isDirectory() ? await walk(arg) : [{ path: arg }]));
    } catch (e) {
      out.push({ path: arg, error: reason(e) });
    }
  }
  return out;
};
