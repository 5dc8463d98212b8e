/**
 * Fetches and unpacks the packages the adapters read, with the ordinary clients: `apt-get
 * download` for Debian packages and `npm pack` for npm packages. Everything lands in the cache
 * (never in the repository): `<cache>/downloads` for the archives, `<cache>/pkgs/<name>` for their
 * unpacked trees. An unpacked tree is reused as it is; delete it to fetch again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where downloads, unpacked packages and rendered messages live: `EPHEMAIL_REAL_CORPUS`, else `~/.cache/ephemail/real-corpus`. */
export const cacheDir = (): string => process.env.EPHEMAIL_REAL_CORPUS ?? join(homedir(), '.cache', 'ephemail', 'real-corpus');

/** A package an adapter reads: a Debian binary package or an npm package spec (`name@version`). */
export type PackageRef = { readonly deb: string } | { readonly npm: string };

export const refName = (ref: PackageRef): string => ('deb' in ref ? `deb-${ref.deb}` : `npm-${ref.npm.replace(/^@/, '').replace(/[/@]/g, '_')}`);

const run = (cmd: string, args: string[], cwd: string): string => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const fetchDeb = (name: string, downloads: string, into: string): string => {
  run('apt-get', ['download', name], downloads);
  const file = readdirSync(downloads).filter((f) => f.startsWith(`${name}_`) && f.endsWith('.deb')).sort().pop();
  if (file === undefined) throw new Error(`apt-get download ${name} left no .deb`);
  run('dpkg-deb', ['-x', join(downloads, file), into], downloads);
  return file;
};

const fetchNpm = (spec: string, downloads: string, into: string): string => {
  const out = run('npm', ['pack', spec, '--silent', '--pack-destination', downloads], downloads).trim().split('\n').pop() ?? '';
  mkdirSync(into, { recursive: true });
  run('tar', ['-xzf', join(downloads, out), '-C', into], downloads);
  return out;
};

/** The unpacked tree of a package (for npm, the `package/` folder inside the tarball), fetched once. */
export const ensurePackage = (ref: PackageRef): string => {
  const root = cacheDir();
  const downloads = join(root, 'downloads');
  const dir = join(root, 'pkgs', refName(ref));
  const done = join(dir, '.complete');
  if (!existsSync(done)) {
    mkdirSync(downloads, { recursive: true });
    const tmp = `${dir}.partial`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const file = 'deb' in ref ? fetchDeb(ref.deb, downloads, tmp) : fetchNpm(ref.npm, downloads, tmp);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    mkdirSync(done);
    mkdirSync(join(done, file.replace(/[/\\]/g, '_')));
  }
  return 'deb' in ref ? dir : join(dir, 'package');
};

/** The archive file name a package was fetched from (it names the version), for labels' `source`. */
export const fetchedFile = (ref: PackageRef): string => {
  const done = join(cacheDir(), 'pkgs', refName(ref), '.complete');
  return existsSync(done) ? (readdirSync(done)[0] ?? '') : '';
};
