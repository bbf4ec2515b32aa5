import { compileLinear, type LinearPattern } from '../untrusted';

/**
 * soev's suite globs (`suites: { huur: suites/huur*.yml }`, relative to the project file's
 * folder) as Python's `Path.glob` reads them: `*` and `?` within one path segment, `[abc]` a
 * character class, `**` any number of folders. Matched against listed paths, so the same rule
 * serves a folder on disk and a repository's tree.
 */
export function globPattern(glob: string): LinearPattern {
  let out = '';
  const parts = glob.replace(/^\.\//, '').split('/');
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '**') {
      out += last ? '.*' : '(?:[^/]+/)*';
      return;
    }
    for (let j = 0; j < part.length; j++) {
      const c = part[j]!;
      if (c === '*') out += '[^/]*';
      else if (c === '?') out += '[^/]';
      else if (c === '[') {
        const end = part.indexOf(']', j + 1);
        if (end < 0) out += '\\[';
        else {
          const body = part.slice(j + 1, end);
          out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body.replace(/\\/g, '\\\\')}]`;
          j = end;
        }
      } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
    }
    if (!last) out += '/';
  });
  // The glob is file content: its regex runs on RE2 (linear), as every untrusted pattern does.
  const compiled = compileLinear(out);
  if (!compiled.ok) throw new Error(`the suite glob ${JSON.stringify(glob)} is not a valid pattern: ${compiled.message}`);
  return compiled.regex;
}

/** The listed paths (relative to the project folder, `/`-separated) a glob matches, in path order. */
export function matchGlob(glob: string, paths: readonly string[]): string[] {
  const pattern = globPattern(glob);
  return paths.filter((p) => pattern.matchWhole(p) !== null).sort();
}
