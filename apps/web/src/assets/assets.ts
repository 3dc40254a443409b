import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Brand } from '../view/brand';
import { LOGO_SVG } from './logo';
import { SCRIPT } from './script';
import { STYLESHEET } from './stylesheet';

interface Asset {
  readonly path: string;
  readonly type: string;
  readonly body: string;
}

// The content hash is in the name, so the files can be cached forever and a new build is never stale.
function asset(name: string, ext: string, type: string, body: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${ext}`, type, body };
}

export const ASSETS = {
  css: asset('app', 'css', 'text/css; charset=utf-8', STYLESHEET),
  js: asset('app', 'js', 'text/javascript; charset=utf-8', SCRIPT),
  icon: asset('icon', 'svg', 'image/svg+xml', LOGO_SVG),
} as const;

/** The operator's stylesheet and logo (view/brand.ts), when set. */
export function registerBrandAssets(app: FastifyInstance, brand: Brand): void {
  for (const asset of [brand.stylesheet, brand.logo])
    if (asset)
      app.get(asset.path, async (_request, reply) =>
        reply
          .type(asset.type)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .send(asset.body),
      );
  // E-mails outlive a release: they show the logo from an address that does not change with its content.
  const logo = brand.logo;
  if (logo)
    app.get('/brand-logo', async (_request, reply) =>
      reply.type(logo.type).header('cache-control', 'public, max-age=3600').send(logo.body),
    );
}

export function registerAssets(app: FastifyInstance): void {
  for (const { path, type, body } of Object.values(ASSETS)) {
    app.get(path, async (_request, reply) =>
      reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(body),
    );
  }
}
