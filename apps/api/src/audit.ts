import type { FastifyRequest } from 'fastify';
import { fingerprint, type AuditActor, type AuditInput } from '@hookline/core';
import type { ApiDeps } from './deps';

export type RecordAudit = (
  request: FastifyRequest,
  entry: Omit<AuditInput, 'actor' | 'address'>,
) => Promise<void>;

/**
 * How API routes record a change in the audit log: the actor is the operator key, named by its fingerprint
 * (never the key), and the address is the caller's as Fastify sees it (forwarded only by trusted proxies).
 */
export function auditRecorder(deps: Pick<ApiDeps, 'audit' | 'config'>): RecordAudit {
  const actor = operatorActor(deps);
  return async (request, entry) => {
    await deps.audit.record({ ...entry, actor, address: request.ip });
  };
}

/** The actor of every API call: the operator key, by its fingerprint. */
export function operatorActor(deps: Pick<ApiDeps, 'config'>): AuditActor {
  return { kind: 'operator_key', key: fingerprint(deps.config.HOOKLINE_API_KEY ?? '') };
}
