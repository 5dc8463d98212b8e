// Types of system-packages.mjs for the TypeScript tests that import it.
export interface SystemPackage {
  readonly probe: string;
  readonly why: string;
  readonly suites: readonly string[];
}
export const PACKAGES: Readonly<Record<string, SystemPackage>>;
export const NO_INSTALL: string;
export const installCommand: (packages: readonly string[]) => string;
export const suitesNeeding: (missing: readonly string[], why: string, packages?: Readonly<Record<string, SystemPackage>>) => Map<string, string>;
export type SystemPackagesPlan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'skip'; readonly missing: string[]; readonly skipped: Map<string, string> }
  | { readonly kind: 'refuse'; readonly missing: string[]; readonly command: string; readonly skipped: Map<string, string> }
  | { readonly kind: 'install'; readonly missing: string[]; readonly command: string };
export const planSystemPackages: (
  situation: { readonly missing: readonly string[]; readonly noInstall: boolean; readonly root: boolean; readonly apt: boolean },
  packages?: Readonly<Record<string, SystemPackage>>,
) => SystemPackagesPlan;
export const missingPackages: (packages?: Readonly<Record<string, SystemPackage>>) => string[];
export const prepareSystemPackages: (env?: NodeJS.ProcessEnv) => { readonly failure?: string; readonly skipped: Map<string, string> };
