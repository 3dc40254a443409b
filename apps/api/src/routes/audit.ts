import { z } from 'zod';
import { auditUnavailable } from '@hookline/core';
import { decodeAuditCursor, isHistoryUnreachable } from '@hookline/history';
import type { ApiDeps } from '../deps';
import { pageQuery } from '../query-fields';
import { erasureCounts } from './erasures';
import { defineRoute, type Route } from '../route';
import { pageOf } from '../schemas';

export const auditQuery = z.strictObject(pageQuery('entries', decodeAuditCursor));

const actor = z
  .object({
    kind: z.enum(['account_user', 'portal_session', 'operator_key', 'admin', 'start_command']),
    read_only: z.boolean().optional().describe('portal_session: whether the session could change nothing'),
    link: z
      .string()
      .optional()
      .describe('portal_session: the fingerprint of the sign-in link that opened it'),
    key: z.string().optional().describe('operator_key: the fingerprint of the key (never the key)'),
    name: z.string().optional().describe("admin: the admin's user name"),
    command: z
      .string()
      .optional()
      .describe('start_command: the all-in-one start that set up the first-run account or demo'),
  })
  .meta({ id: 'AuditActor' });

export const auditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    action: z
      .string()
      .describe(
        'hook.created, hook.updated, hook.credentials_changed, hook.signing_secret_changed, hook.deleted, ' +
          'hook.enabled, hook.probed, hook.tested, hook.resent, hook.paused, hook.resumed, ' +
          'portal_link.created, portal_link.used, account.created, account.password_changed, erasure.requested, ' +
          'erasure.done',
      ),
    hook_id: z.string().optional(),
    actor,
    address: z.string().optional().describe("The client's address"),
    detail: z
      .object({
        url: z
          .string()
          .optional()
          .describe(
            "hook.created, hook.deleted: the hook's URL then (never credentials: a URL with user-info is refused)",
          ),
        description: z
          .string()
          .optional()
          .describe('hook.created, hook.deleted: the hook’s description then, when it had one'),
        fields: z
          .array(z.string())
          .optional()
          .describe('The fields changed, by name (never credential values)'),
        held: z.string().optional(),
        passed: z.boolean().optional(),
        reason: z
          .string()
          .optional()
          .describe('hook.paused: the reason the admin gave, as the customer reads it'),
        attempt_id: z.string().optional(),
        new_attempt_id: z.string().optional(),
        event_id: z.string().optional(),
        link: z.string().optional(),
        read_only: z.boolean().optional(),
        expires_at: z.string().optional(),
        erasure_id: z.string().optional(),
        sign_in: z
          .boolean()
          .optional()
          .describe('account.created: whether the account got a website sign-in'),
        by: z
          .enum(['call_id', 'number'])
          .optional()
          .describe('erasure.requested, erasure.done: what it matched on, never the value'),
        counts: erasureCounts
          .optional()
          .describe('erasure.done: how many records it erased in each place, as the erasure reports them'),
      })
      .describe('What the change was about'),
  })
  .meta({ id: 'AuditEntry' });

const auditPage = pageOf(auditEntry);

export function auditRoutes(deps: ApiDeps): Route[] {
  return [
    defineRoute({
      operationId: 'listAudit',
      method: 'GET',
      path: '/v1/accounts/{acct}/audit',
      summary:
        "The account's audit log: every change someone made (who, when, from which address, what), newest first",
      tag: 'accounts',
      scope: 'account',
      query: auditQuery,
      otherErrors: ['HISTORY_UNAVAILABLE'],
      responses: { 200: { description: 'Audit entries, newest first', schema: auditPage } },
    })(async ({ account, query }) => {
      const page = { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
      // No page of what Redis still holds instead: a client reading it would take a part of the log for all of
      // it. The refusal names the audit log, not the delivery history the caller did not ask for.
      const body = await deps.audit.list(account.id, page).catch((error: unknown) => {
        throw isHistoryUnreachable(error) ? auditUnavailable() : error;
      });
      return { status: 200, body };
    }),
  ];
}
