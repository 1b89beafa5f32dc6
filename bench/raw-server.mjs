// The limit a gateway is measured against: node:http writing prebuilt bytes for each path.
// Usage: node bench/raw-server.mjs <bodies.json> <port>; bodies.json maps "METHOD path" to {type, base64, status?}
// (status 304: a revalidation, answered with no body, as the service answers it).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8'))).map(([route, { type, base64, status }]) => [
    route,
    { type, status, bytes: Buffer.from(base64, 'base64') },
  ]),
);
createServer((req, res) => {
  // POST bodies (GraphQL) are read and ignored: the answer is the recorded one.
  req.resume();
  req.on('end', () => {
    const body = bodies.get(`${req.method} ${req.url}`);
    if (!body) return void res.writeHead(404).end();
    if (body.status === 304) return void res.writeHead(304).end();
    res.writeHead(200, { 'content-type': body.type, 'content-length': body.bytes.length }).end(body.bytes);
  });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
