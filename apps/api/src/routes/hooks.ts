import { createHookInput, notFound, updateHookInput } from '@hookline/core';
import { OPERATOR, type ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { hookView, listOf } from '../schemas';

const HOOKS = '/v1/accounts/{acct}/hooks';
const HOOK = `${HOOKS}/{hook}`;

export function hookRoutes(deps: ApiDeps): Route[] {
  const { hooks } = deps.store;
  return [
    defineRoute({
      operationId: 'createHook',
      method: 'POST',
      path: HOOKS,
      summary: 'Create a hook: every event of the account is delivered to it from now on',
      tag: 'hooks',
      scope: 'account',
      body: createHookInput,
      responses: { 201: { description: 'The hook, credentials masked', schema: hookView } },
    })(async ({ account, body }) => ({
      status: 201,
      body: await hooks.create(account.id, body, OPERATOR),
    })),
    defineRoute({
      operationId: 'listHooks',
      method: 'GET',
      path: HOOKS,
      summary: "The account's hooks",
      tag: 'hooks',
      scope: 'account',
      responses: { 200: { description: 'Every hook of the account', schema: listOf(hookView) } },
    })(async ({ account }) => ({ status: 200, body: { data: await hooks.list(account.id) } })),
    defineRoute({
      operationId: 'getHook',
      method: 'GET',
      path: HOOK,
      summary: 'One hook',
      tag: 'hooks',
      scope: 'hook',
      responses: { 200: { description: 'The hook, credentials masked', schema: hookView } },
    })(async ({ hook }) => ({ status: 200, body: hook })),
    defineRoute({
      operationId: 'updateHook',
      method: 'PATCH',
      path: HOOK,
      summary: 'Change a hook: give only the fields to change (description null removes it)',
      tag: 'hooks',
      scope: 'hook',
      body: updateHookInput,
      responses: { 200: { description: 'The changed hook', schema: hookView } },
    })(async ({ account, hook, body }) => {
      const updated = await hooks.update(account.id, hook.id, body, OPERATOR);
      if (!updated) throw notFound('Hook');
      return { status: 200, body: updated };
    }),
    defineRoute({
      operationId: 'deleteHook',
      method: 'DELETE',
      path: HOOK,
      summary: 'Delete a hook and every event waiting for it',
      tag: 'hooks',
      scope: 'hook',
      responses: { 204: { description: 'The hook is gone' } },
    })(async ({ account, hook }) => {
      if (!(await hooks.remove(account.id, hook.id, OPERATOR))) throw notFound('Hook');
      return { status: 204, body: undefined };
    }),
  ];
}
