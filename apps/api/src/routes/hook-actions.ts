import { z } from 'zod';
import { notFound } from '@hookline/core';
import { OPERATOR, type ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { hookView } from '../schemas';

const HOOK = '/v1/accounts/{acct}/hooks/{hook}';

export const enableHookBody = z.strictObject({
  held: z
    .enum(['deliver', 'discard'], { error: 'held must be "deliver" or "discard"' })
    .describe(
      'What to do with the events held while the hook was suspended: deliver them in order, or discard them',
    ),
});

const acceptedTest = z.object({ id: z.string().describe('Id of the sample event') });

export function hookActionRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'enableHook',
      method: 'POST',
      path: `${HOOK}/enable`,
      summary: 'Re-enable a suspended hook',
      tag: 'hooks',
      scope: 'hook',
      body: enableHookBody,
      responses: { 200: { description: 'The hook, active again', schema: hookView } },
    })(async ({ account, hook, body }) => {
      const enabled = await deps.control.enable(account.id, hook.id, body.held, OPERATOR);
      if (!enabled) throw notFound('Hook');
      return { status: 200, body: enabled };
    }),
    defineRoute({
      operationId: 'testHook',
      method: 'POST',
      path: `${HOOK}/test`,
      summary: 'Send a sample call_created to this hook, in sequence with its other events',
      tag: 'hooks',
      scope: 'hook',
      responses: { 202: { description: 'The sample event is queued', schema: acceptedTest } },
    })(async ({ account, hook }) => ({
      status: 202,
      body: await deps.producer.publishTest(account.id, hook.id),
    })),
  ];
}
