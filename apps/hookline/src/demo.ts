import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hookNamed,
  changedHookFields,
  hookChangeAction,
  HooklineError,
  type AuditActor,
  type HookView,
} from '@hookline/core';
import type { Services } from '@hookline/services';
import { SecretBoxError } from '@hookline/store';

export const DEMO_EMAIL = 'demo@hookline.local';
const DEMO_HOOK = 'Demo receiver (pnpm start --demo)';
// Who the audit log says made the first-run account and the demo hook: the command the operator ran.
const FIRST_RUN: AuditActor = { kind: 'start_command', command: 'pnpm start' };
const DEMO: AuditActor = { kind: 'start_command', command: 'pnpm start --demo' };

/**
 * A first-run account, so the website can be signed in to straight away. If it exists already (with a
 * password the user chose), it is left alone.
 */
export async function ensureDemoAccount(
  services: Services,
  password: string,
): Promise<{ id: string; passwordKnown: boolean }> {
  const known = await services.store.accounts.verifyPassword(DEMO_EMAIL, password);
  if (known) return { id: known.id, passwordKnown: true };
  try {
    const created = await services.store.accounts.create({
      name: 'Demo Telecom',
      email: DEMO_EMAIL,
      password,
    });
    await services.audit.record({
      account_id: created.id,
      action: 'account.created',
      actor: FIRST_RUN,
      detail: { sign_in: true },
    });
    return { id: created.id, passwordKnown: true };
  } catch (error) {
    // The demo account exists with a password from another data directory (Redis outlived `.data`): the demo
    // still goes to it, and the website's sign-in is whatever that password was.
    if (error instanceof HooklineError && error.code === 'CONFLICT')
      return { id: (await services.store.accounts.idByEmail(DEMO_EMAIL)) ?? '', passwordKnown: false };
    throw error;
  }
}

/** A sample endpoint that prints what it receives, and a hook of the demo account pointed at it. */
export async function startDemo(
  services: Services,
  accountId: string,
  print: (line: string) => void,
): Promise<{ receiverUrl: string; hookId: string; held: boolean; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization
        ? ` authorization: ${req.headers.authorization.split(' ')[0]} …`
        : '';
      print(
        `demo receiver <- ${req.method} ${req.url} (${req.headers['content-type']})${auth}\n  ${Buffer.concat(chunks).toString('utf8')}`,
      );
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  const existing = await reusableDemoHook(services, accountId);
  const hook = existing
    ? await services.store.hooks.update(accountId, existing.id, { url: receiverUrl }, 'operator')
    : await services.store.hooks.create(
        accountId,
        { url: receiverUrl, format: 'json', description: DEMO_HOOK },
        'operator',
      );
  const fields = existing ? changedHookFields(existing, { url: receiverUrl }) : [];
  if (!existing || fields.length > 0)
    await services.audit.record({
      account_id: accountId,
      action: existing ? hookChangeAction(fields) : 'hook.created',
      hook_id: hook!.id,
      actor: DEMO,
      detail: existing ? { fields } : hookNamed(hook!),
    });
  const test = await services.producer.publishTest(accountId, hook!.id);
  await services.audit.record({
    account_id: accountId,
    action: 'hook.tested',
    hook_id: hook!.id,
    actor: DEMO,
    detail: { event_id: test.id },
  });
  return {
    receiverUrl,
    hookId: hook!.id,
    // A demo hook suspended in an earlier run (or paused by an admin) holds its test event until re-enabled.
    held: hook!.state === 'suspended',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The demo hook of an earlier start, if this start can deliver to it. A hook made under another data
 * directory (Redis outlived `.data`) has its credentials sealed with that directory's secret key, which this
 * process does not have: it is removed, and the demo makes a new one.
 */
async function reusableDemoHook(services: Services, accountId: string): Promise<HookView | undefined> {
  const existing = (await services.store.hooks.list(accountId)).find((h) => h.description === DEMO_HOOK);
  if (!existing) return undefined;
  try {
    await services.store.hooks.target(existing.id);
    return existing;
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    await services.store.hooks.remove(accountId, existing.id, 'operator');
    await services.audit.record({
      account_id: accountId,
      action: 'hook.deleted',
      hook_id: existing.id,
      actor: DEMO,
      detail: hookNamed(existing),
    });
    return undefined;
  }
}
