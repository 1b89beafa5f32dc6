/** Raw bytes to a listener and what comes back until it closes: for answers node or the listener writes on the socket. */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** The head as sent (status line and header lines). */
  headers: string;
  /** The header lines by lower-case name. */
  headerMap: Record<string, string>;
  body: string;
}

export function rawExchange(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headerMap = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers: head, headerMap, body });
    });
  });
}
