import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oneLineTextProblem, type AuditInput } from '@hookline/core';
import type { RedisKeys } from '@hookline/redis';
import { BOARD_ACTIONS_SCRIPT } from './board-actions-script';
import type { BoardRegistry } from './board-registry';
import type { HookOnBoard, HookQueueAdapter } from './hook-queue-adapter';

// Pause and resume, the only changes an admin may make on the board. Hook queues are read-only on Bull Board,
// so it offers no action at all and would refuse these two as well; hookline serves them on the board's own
// routes, and a script on the board page offers them (the only buttons there).

/** The Bull Board routes served here instead of by Bull Board, relative to the board. */
export const BOARD_ACTION_ROUTES = ['/api/queues/:queueName/pause', '/api/queues/:queueName/resume'] as const;

const hash = createHash('sha256').update(BOARD_ACTIONS_SCRIPT).digest('hex').slice(0, 12);
/** The script's path, relative to the board; the content hash in the name lets it be cached for good. */
export const BOARD_ACTIONS_SCRIPT_PATH = `/hookline/board-actions.${hash}.js`;

export interface BoardActionsDeps {
  readonly registry: BoardRegistry;
  readonly keys: RedisKeys;
  /** Records pauses and resumes in the audit log, with the admin's name (product.md §16). */
  readonly audit?: {
    record(input: AuditInput): Promise<unknown>;
    readonly admin: string;
  };
}

/** Registers the routes on a scope whose prefix is the board's address (e.g. /admin/queues). */
export function registerBoardActions(scope: FastifyInstance, deps: BoardActionsDeps): void {
  const [pauseRoute, resumeRoute] = BOARD_ACTION_ROUTES;
  scope.get(BOARD_ACTIONS_SCRIPT_PATH, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(BOARD_ACTIONS_SCRIPT),
  );
  // What the page's buttons show: whether the hook is suspended.
  scope.get('/hookline/queues/:queueName', async (request, reply) => {
    const adapter = adapterFor(request, deps);
    if (!adapter) return notFound(reply);
    return reply.header('cache-control', 'no-store').send({
      name: adapter.getName(),
      display_name: adapter.getDisplayName(),
      paused: await adapter.isPaused(),
    });
  });
  scope.put(pauseRoute, async (request, reply) => act(request, reply, deps, 'pause'));
  scope.put(resumeRoute, async (request, reply) => act(request, reply, deps, 'resume'));
}

async function act(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: BoardActionsDeps,
  action: 'pause' | 'resume',
): Promise<FastifyReply> {
  const adapter = adapterFor(request, deps);
  if (!adapter) return notFound(reply);
  // resume = re-enabled, held events delivered in order (HookQueueAdapter).
  const before = await adapter.isPaused();
  // pause = suspended by an admin, with the reason they typed (the customer reads it), kept as typed or refused.
  const reason = action === 'pause' ? reasonOf(request.body) : undefined;
  if (reason?.problem)
    return reply.code(400).send({
      error: {
        code: 'VALIDATION_FAILED',
        message: `reason ${reason.problem}`,
        details: [{ field: 'reason', message: reason.problem }],
      },
    });
  let held = false;
  if (action === 'pause') held = await adapter.hold(reason?.text);
  else await adapter.resume();
  const paused = await adapter.isPaused();
  // Only a change is recorded: pausing a paused hook (a second click) changed nothing, unless it made a
  // suspension by failures the admin's hold.
  if (deps.audit && (paused !== before || held))
    await recordChange(request, deps.audit, adapter.hook, action, reason?.text);
  return reply.send({ paused });
}

async function recordChange(
  request: FastifyRequest,
  audit: NonNullable<BoardActionsDeps['audit']>,
  hook: HookOnBoard,
  action: 'pause' | 'resume',
  reason: string | undefined,
): Promise<void> {
  await audit.record({
    account_id: hook.accountId,
    action: action === 'pause' ? 'hook.paused' : 'hook.resumed',
    hook_id: hook.hookId,
    actor: { kind: 'admin', name: audit.admin },
    address: request.ip,
    // A pause's reason is what was done, as the customer reads it on the hook's page.
    detail: action === 'resume' ? { held: 'deliver' } : reason ? { reason } : {},
  });
}

const REASON_MAX = 300;

/**
 * The admin's reason: one line of text, at most 300 characters, shown to the customer as typed; none when
 * absent or blank. What could not be shown as typed is refused, not rewritten.
 */
function reasonOf(body: unknown): { text?: string; problem?: string } {
  const raw = (body as { reason?: unknown } | null | undefined)?.reason;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'string') return { problem: 'must be a string' };
  const text = raw.trim();
  const problem =
    text.length > REASON_MAX ? `must be at most ${REASON_MAX} characters` : oneLineTextProblem(text);
  if (problem) return { problem };
  return text ? { text } : {};
}

function adapterFor(request: FastifyRequest, deps: BoardActionsDeps): HookQueueAdapter | undefined {
  const { queueName } = request.params as { queueName: string };
  const hookId = deps.keys.hookIdFromQueueName(queueName);
  return hookId ? deps.registry.adapter(hookId) : undefined;
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such hook queue' } });
}
