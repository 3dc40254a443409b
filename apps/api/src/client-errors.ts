import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { HooklineError } from '@hookline/core';

/**
 * Fastify's clientErrorHandler: requests Node's HTTP parser refuses before Fastify sees them (headers over
 * Node's 16 KiB, a request not received within the HTTP tier's deadlines, bytes that are not HTTP). Answered
 * in the catalogue's shape, as every other error is: Fastify's own answer is its JSON
 * ({"error":"Request Header Fields Too Large","statusCode":431,…}). The connection is closed after it, as
 * Node's parser cannot go on reading it.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A client that hung up gets nothing; nothing can be written to it.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const problem = clientProblem(error.code, (error as { reason?: unknown }).reason);
    const body = JSON.stringify(problem.toBody());
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Cache-Control: no-store\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function clientProblem(code: string | undefined, reason: unknown): HooklineError {
  if (code === 'HPE_HEADER_OVERFLOW')
    return new HooklineError(
      'HEADERS_TOO_LARGE',
      'Request headers, the path and query included, are larger than 16 KiB',
    );
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new HooklineError('REQUEST_TIMEOUT', 'The request was not received in time');
  // Node's parser says what it met ("Invalid header token", "Transfer-Encoding can't be present with
  // Content-Length"): a client fixing its request needs that more than the verdict.
  const what = typeof reason === 'string' && reason !== '' ? `: ${reason}` : '';
  return new HooklineError('MALFORMED_REQUEST', `The request is not valid HTTP/1.1${what}`);
}
