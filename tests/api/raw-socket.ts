/**
 * Raw HTTP/1.1 over a socket, for what fetch will not send: a request written byte by byte, a Host
 * header of the test's choice (or two), headers that never end.
 */
import { connect, type Socket } from 'node:net';

/** A connection to the server on loopback: what it sent so far, and whether it closed the connection. */
export function rawConnection(
  port: number,
): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const socket = connect(port, '127.0.0.1', () =>
      resolve({ socket, received: () => text, closed: () => ended }),
    );
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => (ended = true));
    socket.on('error', reject);
  });
}

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * One request on its own connection, its head lines written as given (`connection: close` and, with a
 * body, its JSON type and length added); the answer once the server has closed the connection.
 */
export function rawRequest(port: number, head: string[], body = ''): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    const lines = [...head, 'connection: close'];
    if (bytes.length) lines.push('content-type: application/json', `content-length: ${bytes.length}`);
    let text = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.write(bytes);
    });
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [statusLine = '', ...rest] = text.split('\r\n');
      const answer = rest.join('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        body: answer.slice(answer.indexOf('\r\n\r\n') + 4),
      });
    });
  });
}
