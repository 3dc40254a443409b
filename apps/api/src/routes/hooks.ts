import { z } from 'zod';
import {
  hookNamed,
  BUILT_IN_CATALOG,
  changedHookFields,
  hookChangeAction,
  hookInputSchemas,
  notFound,
  type HookView,
} from '@hookline/core';
import { decodeHookCursor } from '@hookline/store';
import { auditRecorder } from '../audit';
import { OPERATOR, type ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { pageQuery } from '../query-fields';
import { hookView, hookWithSecret, pageOf } from '../schemas';

const HOOKS = '/v1/accounts/{acct}/hooks';
const HOOK = `${HOOKS}/{hook}`;

// Oldest first, the order the list always had; 200 by default, so a client with fewer hooks than that gets the
// whole list in one answer as before (store's hook-page.ts says why the order holds across pages).
const hooksQuery = z.strictObject(
  pageQuery('hooks', decodeHookCursor, { fallback: 200, order: 'oldest first' }),
);

export function hookRoutes(deps: ApiDeps): Route[] {
  const { hooks } = deps.store;
  // As the store checks it: the configured event-type header is hookline's, not a hook's to give.
  const schemas = hookInputSchemas(deps.config.eventCatalog ?? BUILT_IN_CATALOG, {
    eventTypeHeader: deps.config.HOOKLINE_EVENT_TYPE_HEADER,
  });
  const audit = auditRecorder(deps);
  // Read for a suspended hook alone (one command): a GET of an active hook costs nothing more for it.
  const withHeldCount = async (hook: HookView) =>
    hook.state === 'suspended' ? { ...hook, held_count: await deps.store.held.count(hook.id) } : hook;
  return [
    defineRoute({
      operationId: 'createHook',
      method: 'POST',
      path: HOOKS,
      summary:
        'Create a hook: the events of the account of the kinds it subscribes to are delivered to it from now on',
      tag: 'hooks',
      scope: 'account',
      body: schemas.create,
      responses: {
        201: {
          description:
            'The hook, credentials masked; with signing: true, its signing secret (shown only here)',
          schema: hookWithSecret,
        },
      },
    })(async ({ account, body, request }) => {
      const hook = await hooks.create(account.id, body, OPERATOR);
      await audit(request, {
        account_id: account.id,
        action: 'hook.created',
        hook_id: hook.id,
        detail: hookNamed(hook),
      });
      return { status: 201, body: hook };
    }),
    defineRoute({
      operationId: 'listHooks',
      method: 'GET',
      path: HOOKS,
      summary:
        "The account's hooks, oldest first (by creation, then id), with cursor pagination: a hook created or " +
        'deleted between pages neither repeats nor skips another, and one created during a walk comes on a later page',
      tag: 'hooks',
      scope: 'account',
      query: hooksQuery,
      responses: { 200: { description: 'Hooks, oldest first', schema: pageOf(hookView) } },
    })(async ({ account, query }) => {
      const page = await hooks.page(account.id, {
        limit: query.limit,
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      return { status: 200, body: { ...page, data: await Promise.all(page.data.map(withHeldCount)) } };
    }),
    defineRoute({
      operationId: 'getHook',
      method: 'GET',
      path: HOOK,
      summary: 'One hook',
      tag: 'hooks',
      scope: 'hook',
      responses: {
        200: { description: 'The hook, credentials masked; held_count while suspended', schema: hookView },
      },
    })(async ({ hook }) => ({ status: 200, body: await withHeldCount(hook) })),
    defineRoute({
      operationId: 'updateHook',
      method: 'PATCH',
      path: HOOK,
      summary: 'Change a hook: give only the fields to change (description null removes it)',
      tag: 'hooks',
      scope: 'hook',
      body: schemas.update,
      // Another change of the same hook kept landing between this one's read and its write.
      otherErrors: ['CONFLICT'],
      responses: {
        200: {
          description:
            'The changed hook; when signing was just turned on, its signing secret (shown only here)',
          schema: hookWithSecret,
        },
      },
    })(async ({ account, hook, body, request }) => {
      // Credentials given again as they are change nothing (the store leaves them out too), and are not
      // recorded as changed. Compared before the update, which may replace them.
      const change = await hooks.withoutKeptCredentials(account.id, hook.id, body);
      const updated = await hooks.update(account.id, hook.id, body, OPERATOR);
      if (!updated) throw notFound('Hook');
      const fields = changedHookFields(hook, change);
      // Only a change is recorded: a PATCH that gives every field its present value changed nothing.
      if (fields.length > 0)
        await audit(request, {
          account_id: account.id,
          action: hookChangeAction(fields),
          hook_id: hook.id,
          detail: { fields },
        });
      return { status: 200, body: updated };
    }),
    defineRoute({
      operationId: 'rotateSigningSecret',
      method: 'POST',
      path: `${HOOK}/signing-secret/rotate`,
      summary:
        'A new signing secret, shown once; for 24 hours requests carry the signatures of both the new and ' +
        'the previous secret, so the receiver can switch without losing a request',
      tag: 'hooks',
      scope: 'hook',
      otherErrors: ['CONFLICT'],
      responses: { 200: { description: 'The hook with its new signing secret', schema: hookWithSecret } },
    })(async ({ account, hook, request }) => {
      const rotated = await hooks.rotateSigningSecret(account.id, hook.id, OPERATOR);
      if (!rotated) throw notFound('Hook');
      await audit(request, {
        account_id: account.id,
        action: 'hook.signing_secret_changed',
        hook_id: hook.id,
        detail: { fields: ['signing_secret'] },
      });
      return { status: 200, body: rotated };
    }),
    defineRoute({
      operationId: 'deleteHook',
      method: 'DELETE',
      path: HOOK,
      summary: 'Delete a hook and every event waiting for it',
      tag: 'hooks',
      scope: 'hook',
      responses: { 204: { description: 'The hook is gone' } },
    })(async ({ account, hook, request }) => {
      if (!(await hooks.remove(account.id, hook.id, OPERATOR))) throw notFound('Hook');
      await audit(request, {
        account_id: account.id,
        action: 'hook.deleted',
        hook_id: hook.id,
        detail: hookNamed(hook),
      });
      return { status: 204, body: undefined };
    }),
  ];
}
