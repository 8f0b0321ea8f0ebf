/** A folder or file of a tree built from sorted paths. */
export interface TreeNode {
  /** The last path segment. */
  name: string;
  /** The full path (relative to the tree's root). */
  path: string;
  /** Children of a folder, folders first, then by name; absent for a file. */
  children?: TreeNode[];
}

/** Build a nested tree from file paths (`src/a.py`, `tests/test_a.py`); folders first, then files, each by name. */
export function fileTree(paths: readonly string[]): TreeNode[] {
  const root: TreeNode = { name: '', path: '', children: [] };
  for (const p of paths) {
    const parts = p.split('/');
    let node = root;
    parts.forEach((name, i) => {
      const isFile = i === parts.length - 1;
      const childPath = parts.slice(0, i + 1).join('/');
      let child = node.children!.find((c) => c.name === name && !c.children === isFile);
      if (!child) {
        child = isFile ? { name, path: childPath } : { name, path: childPath, children: [] };
        node.children!.push(child);
      }
      node = child;
    });
  }
  const sort = (nodes: TreeNode[]): TreeNode[] =>
    nodes
      .sort((a, b) => Number(!a.children) - Number(!b.children) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((n) => (n.children ? { ...n, children: sort(n.children) } : n));
  return sort(root.children!);
}

/** An HTML id for a starter file's section: `file-src-gate-py`. */
export function fileAnchor(path: string): string {
  return `file-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase()}`;
}
