import type { FastifyReply, FastifyRequest } from 'fastify';

// The site sets two cookies (the session's, and a short check before a sign-in link is used in a frame), so a
// few lines replace a cookie library (whose ESM-only parser cannot be loaded by the CommonJS test runner).

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return readCookies(request, name)[0];
}

/**
 * Every value the browser sent under `name`, in its order. A browser can hold two cookies of one name, a
 * partitioned one and an ordinary one (CHIPS keys a cookie by its partition too), and sends both to a
 * top-level page of the site.
 */
export function readCookies(request: FastifyRequest, name: string): string[] {
  const header = request.headers.cookie;
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

export interface CookieOptions {
  readonly secure: boolean;
  /** Seconds; 0 deletes the cookie. Absent: a browser-session cookie. */
  readonly maxAge?: number;
  /**
   * For a page shown in the operator's iframe: `SameSite=None; Secure; Partitioned` (CHIPS). Browsers that
   * block third-party cookies still keep a partitioned one, in a jar of its own for the operator's site, so
   * no other site's page can use it. `Secure` is accepted over https and on localhost only.
   */
  readonly partitioned?: boolean;
}

/** HttpOnly (no script can read it) and SameSite=Lax (not sent on cross-site subrequests or POSTs). */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const attributes = [`${name}=${value}`, 'Path=/', 'HttpOnly'];
  if (options.partitioned) attributes.push('SameSite=None', 'Secure', 'Partitioned');
  else attributes.push('SameSite=Lax', ...(options.secure ? ['Secure'] : []));
  if (options.maxAge !== undefined) attributes.push(`Max-Age=${options.maxAge}`);
  // Replaces the same cookie set earlier in this request (sign-out then a fresh anonymous session); keeps others,
  // the other partition's cookie of the same name too (a browser keeps the two apart).
  const partitioned = options.partitioned === true;
  const earlier = reply.getHeader('set-cookie');
  const others = (Array.isArray(earlier) ? earlier : earlier === undefined ? [] : [String(earlier)]).filter(
    (cookie) => !(cookie.startsWith(`${name}=`) && cookie.includes('; Partitioned') === partitioned),
  );
  reply.removeHeader('set-cookie');
  reply.header('set-cookie', others.length > 0 ? [...others, attributes.join('; ')] : attributes.join('; '));
}
