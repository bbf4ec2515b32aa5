// Types of bundle-cache.mjs (plain JavaScript, read by the command's launcher before TypeScript loads).
export function bundleCacheDir(root: string): string;
export function bundleFileIfChanged(entry: string, tsconfig: string): { path: string; built: boolean };
export function bundleEntriesIfChanged(name: string, entries: Record<string, string>, tsconfig: string): Promise<{ dir: string; built: boolean }>;
export function onlyCommonJs(specifier: string, resolveDir: string): boolean;
export function exportsTarget(exports: unknown, subpath: string, conditions: string[]): string | null;
