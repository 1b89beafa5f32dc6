// A webhook receiver for the bench, in its own process so that it does not share the gateway's
// event loop: answers 204 to every POST after DELAY_MS, counts them. Prints its port on start.
import http from 'node:http';

const delayMs = Number(process.argv[2] ?? 0);
let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'GET') return void res.end(String(received));
    received++;
    setTimeout(() => res.writeHead(204).end(), delayMs);
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
