import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BODY_LIMIT, payloadTooLarge } from './json-body';

// Methods whose body Fastify never reads (it serves them without one): their declared length is not judged.
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

const isApiPath = (url: string): boolean => url === '/v1' || /^\/v1[/?]/.test(url);

/**
 * `Expect: 100-continue` asks whether to send the body before sending it. Node's server says yes to every such
 * request unless a 'checkContinue' listener decides, so a body declared over the API's limit (64 KiB, every route
 * of the API has it) was sent whole and refused only then. Here it is refused at once, in the catalogue's
 * shape and uncached like every answer, before the key or the path is judged (the limit is the same for every
 * path, so the answer tells nothing about which exist); Node closes the connection after a final answer that
 * followed no 100 Continue, as the client may still send the body. Any other request is told to continue and
 * handed to the server's 'request' listeners, which is what Node does without this listener: Fastify then
 * serves it as any other. Paths outside /v1 (the all-in-one server's website) are left to their own limits.
 */
export function answerExpectContinue(server: Server): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > BODY_LIMIT && !BODYLESS.has(request.method ?? '') && isApiPath(request.url ?? '')) {
      const body = JSON.stringify(payloadTooLarge().toBody());
      response.writeHead(413, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
      return;
    }
    response.writeContinue();
    server.emit('request', request, response);
  });
}
