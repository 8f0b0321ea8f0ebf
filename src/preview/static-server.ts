import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * A static file server for a built site on 127.0.0.1, as a static host serves it: `/a/` is
 * `/a/index.html`, `/a` redirects to `/a/` when that is a folder, and anything else gets the
 * site's `404.html` with status 404. GET and HEAD only; nothing outside the folder is served.
 * `packet preview` and the end-to-end tests use it.
 */

/** A running server. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.zip': 'application/zip',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** Resolve a URL path inside `root` the way a static host does: `/a/` serves `/a/index.html`; `/a` redirects to `/a/` when that is a folder. */
async function resolve(root: string, urlPath: string): Promise<{ file?: string; redirect?: string }> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return {};
  }
  const abs = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  if (abs !== root && !abs.startsWith(root + path.sep)) return {};
  if (decoded.endsWith('/')) return (await isFile(path.join(abs, 'index.html'))) ? { file: path.join(abs, 'index.html') } : {};
  if (await isFile(abs)) return { file: abs };
  if (await isFile(path.join(abs, 'index.html'))) return { redirect: `${urlPath}/` };
  return {};
}

/** Serve `root` on 127.0.0.1 at `port` (0, the default: a port the system picks). GET and HEAD only; 404s get the site's 404.html. */
export async function serveStatic(root: string, port = 0): Promise<StaticServer> {
  const base = path.resolve(root);
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const { file, redirect } = await resolve(base, url.pathname);
    if (redirect) {
      res.writeHead(301, { location: redirect + url.search }).end();
      return;
    }
    const target = file ?? path.join(base, '404.html');
    const status = file ? 200 : 404;
    if (!(await isFile(target))) {
      res.writeHead(404, { 'content-type': TYPES['.txt']! }).end('not found\n');
      return;
    }
    const size = (await stat(target)).size;
    res.writeHead(status, {
      'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': 'no-store',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(target).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
