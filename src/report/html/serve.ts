/**
 * A static file server for reports/ on loopback only: the index is rebuilt on every visit and a
 * run's report.html is generated on first request, so the listing is always current.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { INDEX_FILE, writeIndex } from '../index-page.ts';
import { REPORT_FILE } from './data.ts';
import { writeReportFiles } from './write.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.prom': 'text/plain; version=0.0.4; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

export interface ReportServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function serveReports(root: string, port: number): Promise<ReportServer> {
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    try {
      respond(base, req, res);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${(error as Error).message}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const actual = (server.address() as { port: number }).port;
      resolve({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function respond(base: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const file = path.resolve(base, `.${rel}`);
  // Nothing outside reports/ is served, whatever `..` or encoded separators the path holds.
  if (file !== base && !file.startsWith(base + path.sep)) {
    res.writeHead(403).end();
    return;
  }
  if (rel === '/' || rel === `/${INDEX_FILE}`) writeIndex(base);
  let target = file;
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    if (!rel.endsWith('/')) {
      res.writeHead(301, { location: `${rel}/` }).end();
      return;
    }
    target = path.join(target, target === base ? INDEX_FILE : REPORT_FILE);
  }
  if (!fs.existsSync(target) && path.basename(target) === REPORT_FILE && fs.existsSync(path.dirname(target))) {
    try {
      writeReportFiles(path.dirname(target));
    } catch {
      // Not a run folder: falls through to 404.
    }
  }
  if (!fs.existsSync(target) || !fs.statSync(target).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream',
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(target).pipe(res);
}
