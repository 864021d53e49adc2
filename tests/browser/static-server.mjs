// static-server.mjs — a static file server for the browser tests: serves one folder on a free localhost port.
//
// startStaticServer(root, {cors, types}) resolves to { url, close() }; url ends with '/'. GET and HEAD only;
// '/' and folder paths serve index.html; paths outside root and missing files are 404. With cors: true every
// answer lets any origin read it (Access-Control-Allow-Origin: *), as a host serving the element's script to
// other sites must; types ({'.wasm': 'application/octet-stream'}) overrides content types, as a host that does
// not know a file type does. Binds 127.0.0.1 on an OS-chosen port so parallel runs never collide (two servers are two
// origins). BLANK_PATH answers an empty page of the origin whatever the folder holds (page-helpers.mjs resets a lent
// page there: a 404 would put a console error on it). Not a general server: no ranges, caching or compression.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export const BLANK_PATH = '/__blank__';

export async function startStaticServer(root, { cors = false, types = {} } = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    if (request.url === BLANK_PATH) {
      response.writeHead(200, { 'content-type': TYPES['.html'] }).end('<!doctype html><title>blank</title>');
      return;
    }
    const file = await fileFor(base, request.url);
    if (!file || !['GET', 'HEAD'].includes(request.method)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = await readFile(file);
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      ...(cors ? { 'access-control-allow-origin': '*' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((done) => server.close(done)),
  };
}

// The file a request path names under base, or null when it is outside base or missing.
async function fileFor(base, url) {
  let path;
  try {
    path = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
  let file = normalize(join(base, path));
  if (file !== base && !file.startsWith(base + sep)) return null;
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}
