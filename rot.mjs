import autocannon from 'autocannon';
import fs from 'node:fs';
const keys = fs.readFileSync(process.argv[2], 'utf8').split('\n');
let i = 0;
const r = await autocannon({ url: 'http://127.0.0.1:4700/api/v1/markets?limit=100', connections: 50, amount: keys.length, requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[i++ % keys.length]}` } }) }] });
console.log('done', r.requests.total, r.non2xx);
