import { z } from 'zod';
import { heldChoiceText, HooklineError, notFound, type HeldChoice } from '@hookline/core';
import { parseFilterTime } from '@hookline/history';
import { auditRecorder } from '../audit';
import { OPERATOR, type ApiDeps } from '../deps';
import { defineRoute, type Route } from '../route';
import { hookView } from '../schemas';

const HOOK = '/v1/accounts/{acct}/hooks/{hook}';

const SINCE = 'must be an ISO 8601 time such as 2026-11-24T09:00:00Z';

export const enableHookBody = z
  .strictObject({
    held: z
      .enum(['deliver', 'discard', 'since'], { error: 'held must be "deliver", "discard" or "since"' })
      .describe(
        'What to do with the events held while the hook was suspended: deliver them in order, discard them, ' +
          'or discard those accepted before `since` and deliver the rest in order',
      ),
    since: z
      .string()
      .superRefine((v, ctx) => {
        // A zone is required (the server's own would be a guess), and a date the calendar has: Date.parse
        // rolls 2026-11-31 into December, which would discard every held event.
        const time = parseFilterTime(v);
        if (
          !/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/.test(v) ||
          ('problem' in time && time.problem === 'shape')
        )
          ctx.addIssue({ code: 'custom', message: SINCE });
        else if ('problem' in time)
          ctx.addIssue({
            code: 'custom',
            message: `must be a date the calendar has (${v.slice(0, 10)} is not one)`,
          });
      })
      .optional()
      .describe(
        'With held "since": events accepted before this time are discarded; one accepted at it is delivered',
      ),
    probe: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .describe(
        'Test first: one sample call_created (trigger probe) is sent while the hook is still suspended; only a ' +
          '2xx re-enables it, anything else answers 409 PROBE_FAILED with the attempt',
      ),
  })
  .superRefine((body, ctx) => {
    if (body.held === 'since' && body.since === undefined)
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'is required when held is "since"' });
    if (body.held !== 'since' && body.since !== undefined)
      ctx.addIssue({ code: 'custom', path: ['since'], message: 'is only for held "since"' });
  })
  .transform((body): { held: HeldChoice; probe: boolean } => ({
    held: body.held === 'since' ? { since: new Date(body.since!) } : body.held,
    probe: body.probe === true,
  }));

const acceptedTest = z.object({ id: z.string().describe('Id of the sample event') });

/** The hook, and what this re-enable did with its held events, as the website's answer and activity say. */
const enabledHook = hookView
  .extend({
    held_events: z
      .object({
        discarded: z.number().int().describe('Held events recorded `discarded` by this re-enable'),
        queued: z.number().int().describe('Held events queued for delivery, in order'),
      })
      .optional()
      .describe(
        'Absent when this call changed nothing (the hook was active, or another re-enable came first)',
      ),
  })
  .meta({ id: 'EnabledHook' });

export function hookActionRoutes(deps: ApiDeps): Route[] {
  const audit = auditRecorder(deps);
  return [
    defineRoute({
      operationId: 'enableHook',
      method: 'POST',
      path: `${HOOK}/enable`,
      summary: 'Re-enable a suspended hook',
      tag: 'hooks',
      scope: 'hook',
      body: enableHookBody,
      otherErrors: ['PROBE_FAILED', 'CONFLICT'],
      responses: {
        200: {
          description: 'The hook, active again, and what became of its held events',
          schema: enabledHook,
        },
      },
    })(async ({ account, hook, body, request }) => {
      const held = heldChoiceText(body.held);
      const base = { account_id: account.id, hook_id: hook.id };
      let enabled;
      try {
        enabled = await deps.control.enable(account.id, hook.id, body.held, OPERATOR, { probe: body.probe });
      } catch (error) {
        // A failed probe changed nothing but did reach the endpoint: recorded, then answered as before.
        if (error instanceof HooklineError && error.code === 'PROBE_FAILED')
          await audit(request, { ...base, action: 'hook.probed', detail: { held, passed: false } });
        throw error;
      }
      if (!enabled) throw notFound('Hook');
      // Enabling an active hook changes nothing, and is not recorded; nor is a re-enable another one overtook.
      if (enabled.changed)
        await audit(request, {
          ...base,
          action: 'hook.enabled',
          detail: body.probe ? { held, passed: true } : { held },
        });
      if (!enabled.changed) return { status: 200, body: enabled.hook };
      const { discarded, queued } = enabled;
      return { status: 200, body: { ...enabled.hook, held_events: { discarded, queued } } };
    }),
    defineRoute({
      operationId: 'testHook',
      method: 'POST',
      path: `${HOOK}/test`,
      summary:
        'Send a sample call_created to this hook, in sequence with its other events; with an Idempotency-Key, ' +
        'a retry sends nothing more',
      tag: 'hooks',
      scope: 'hook',
      idempotent: true,
      responses: {
        202: {
          description:
            'The sample event is queued (with a key given before: the first request’s answer, nothing queued)',
          schema: acceptedTest,
        },
      },
    })(async ({ account, hook, request, requestKey }) => {
      const sent = await deps.producer.publishTest(account.id, hook.id, requestKey ? { requestKey } : {});
      // A retry changed nothing: the first request's entry stands alone.
      if (!sent.duplicate)
        await audit(request, {
          account_id: account.id,
          action: 'hook.tested',
          hook_id: hook.id,
          detail: { event_id: sent.id },
        });
      return { status: 202, body: { id: sent.id } };
    }),
  ];
}
