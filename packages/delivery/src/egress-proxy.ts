/** The forward proxy every outbound request goes through (`HOOKLINE_EGRESS_PROXY`), parsed once at start. */
export interface EgressProxy {
  readonly host: string;
  readonly port: number;
  /** The `Proxy-Authorization` value when the URL carries user:password. Never logged, never shown. */
  readonly authorization?: string;
  /** The proxy as logs, metrics and pages may name it: host and port, never the credentials. */
  readonly shown: string;
}

/**
 * `http://[user:password@]host:port`. Throws for anything else: the setting is validated at start, so this
 * only catches a caller that skipped that.
 */
export function parseEgressProxy(text: string): EgressProxy {
  const url = new URL(text);
  if (url.protocol !== 'http:') throw new Error('the egress proxy must be an http:// URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : 80;
  const shown = `${url.hostname}:${port}`;
  if (!url.username && !url.password) return { host, port, shown };
  // RFC 7617 over the decoded user-info: `%40` in the URL is an `@` in the user name.
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const authorization = `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
  return { host, port, authorization, shown };
}
