import path from 'node:path';

/**
 * Why a target folder cannot be replaced whole, or undefined: it must not hold the project, the
 * packets, the Astro project or the other target, nor sit inside the packets folder.
 */
export function targetProblem(target: string, other: string, held: { cwd: string; packetsDir: string; siteRoot: string }): string | undefined {
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
  const holds = [held.cwd, held.packetsDir, held.siteRoot, other].find((p) => inside(p, target));
  if (holds) return `would replace a folder holding ${path.relative(held.cwd, holds) || '.'}`;
  if (inside(target, held.packetsDir)) return 'is inside the packets folder';
  return undefined;
}
