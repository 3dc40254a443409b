import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hookNamed,
  BUILT_IN_CATALOG,
  changedHookFields,
  hookChangeAction,
  hookInputSchemas,
  HooklineError,
  type HookWithSecret,
  type UpdateHookInput,
} from '@hookline/core';
import {
  EMPTY_VALUES,
  fieldErrors,
  onlyChanges,
  parseCreateForm,
  parseUpdateForm,
  valuesOf,
  type HookFormValues,
} from '../hook-form-input';
import { deleteHookPage } from '../pages/delete-hook-page';
import { hookFormPage } from '../pages/hook-form-page';
import { signingSecretPage } from '../pages/signing-secret-page';
import { CHANGE_PAGE } from '../read-only-guard';
import type { SignedIn, WebContext } from '../web-context';

type Params = { id: string };

/** The store validates again; its field problems land next to the same fields. */
function storeProblems(error: unknown, values: HookFormValues) {
  if (error instanceof HooklineError && error.code === 'VALIDATION_FAILED' && error.details)
    return { values, errors: fieldErrors(error.details) };
  throw error;
}

/** The version an edit form was opened on; undefined when it sent none, several, or one that is not a version. */
function formVersion(body: unknown): number | undefined {
  const value = (body as Record<string, unknown> | undefined)?.version;
  return typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : undefined;
}

export function hookRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { hooks } = ctx.deps.store;
  // The version first: settings read after it are at least that new, so a form carrying it never hides a change.
  const currentHook = async (who: SignedIn, hookId: string) => {
    const version = await hooks.version(who.account.id, hookId);
    const hook = version === undefined ? undefined : await hooks.get(who.account.id, hookId);
    return hook && version !== undefined ? { hook, version } : undefined;
  };
  const catalog = ctx.deps.config.eventCatalog ?? BUILT_IN_CATALOG;
  const schemas = hookInputSchemas(catalog, { eventTypeHeader: ctx.deps.config.HOOKLINE_EVENT_TYPE_HEADER });
  const formPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: SignedIn,
    input: Omit<Parameters<typeof hookFormPage>[1], 'deadlineMs' | 'kinds'>,
    status = 200,
  ) =>
    ctx.page(
      reply,
      hookFormPage(await ctx.viewer(request, who), {
        ...input,
        deadlineMs: ctx.deps.config.HOOKLINE_DELIVERY_TIMEOUT_MS,
        kinds: catalog.producerKinds,
      }),
      status,
    );
  // Post/Redirect/Get: the POST keeps the new secret in the session for one GET and redirects there; a reload
  // or a step back never repeats the POST, and the secret page works once.
  const showSecretOnce = async (
    request: FastifyRequest,
    reply: FastifyReply,
    hook: HookWithSecret,
    rotated: boolean,
  ) => {
    const token = await ctx.sessions.stashSecret(request, hook.id, hook.signing_secret!, rotated);
    return reply.redirect(`/hooks/${hook.id}/signing-secret?once=${encodeURIComponent(token)}`, 303);
  };

  app.get<{ Params: Params; Querystring: { once?: string } }>(
    '/hooks/:id/signing-secret',
    async (request, reply) => {
      const who = await ctx.require(request, reply);
      if (!who) return reply;
      const hook = await hooks.get(who.account.id, request.params.id);
      if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
      const pending = await ctx.sessions.takeSecret(request, hook.id, String(request.query.once ?? ''));
      if (!pending) {
        // A read-only session cannot rotate: it is not told to (nothing offered that the server would refuse).
        const next = who.readOnly
          ? 'Someone who can change this hook can rotate the secret to get a new one.'
          : 'If you did not copy it, rotate the secret to get a new one.';
        await ctx.sessions.flash(request, {
          kind: 'warning',
          message: `A signing secret is shown only once, and this one was shown already. ${next}`,
        });
        return reply.redirect(`/hooks/${hook.id}`, 303);
      }
      // Nothing keeps the page: not the browser's cache, not its back-forward cache.
      void reply.header('cache-control', 'no-store');
      const shown: HookWithSecret = { ...hook, signing_secret: pending.secret };
      return ctx.page(reply, signingSecretPage(await ctx.viewer(request, who), shown, pending.rotated));
    },
  );

  app.get('/hooks', async (_request, reply) => reply.redirect('/', 301));

  app.get('/hooks/new', CHANGE_PAGE, async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    return formPage(request, reply, who, { values: EMPTY_VALUES, errors: {} });
  });

  app.post('/hooks', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const form = parseCreateForm(request.body as Record<string, unknown>, schemas);
    if (!form.ok) return formPage(request, reply, who, form, 400);
    try {
      const hook = await hooks.create(who.account.id, form.input, who.actor);
      await ctx.audit(request, who, { action: 'hook.created', hook_id: hook.id, detail: hookNamed(hook) });
      if (hook.signing_secret) return await showSecretOnce(request, reply, hook, false);
      await ctx.sessions.flash(request, {
        kind: 'success',
        message: 'Hook created. Send a test event to check that your endpoint receives it.',
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    } catch (error) {
      return formPage(request, reply, who, storeProblems(error, form.values), 400);
    }
  });

  app.get<{ Params: Params }>('/hooks/:id/edit', CHANGE_PAGE, async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const current = await currentHook(who, request.params.id);
    if (!current) return ctx.hookNotFound(request, reply, who, request.params.id);
    return formPage(request, reply, who, { values: valuesOf(current.hook), errors: {}, ...current });
  });

  app.post<{ Params: Params }>('/hooks/:id/edit', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const current = await currentHook(who, request.params.id);
    if (!current) return ctx.hookNotFound(request, reply, who, request.params.id);
    const { hook, version } = current;
    // The form's fields are all of the settings as they were when it was opened: saved over a newer version,
    // the ones this visitor did not touch would undo the other change. Refused, with the settings as they are.
    const seen = formVersion(request.body);
    const changedMeanwhile = async () => {
      const now = await currentHook(who, hook.id);
      if (!now) return ctx.hookNotFound(request, reply, who, hook.id);
      const values = valuesOf(now.hook);
      return formPage(request, reply, who, { values, errors: {}, ...now, changedMeanwhile: true }, 409);
    };
    // A form that names no version, or one it could not have been given (a page from before forms carried it,
    // a damaged one), is judged as stale: saved, it could undo a change made since.
    if (seen !== version) return changedMeanwhile();
    const form = parseUpdateForm(request.body as Record<string, unknown>, hook, schemas);
    if (!form.ok) return formPage(request, reply, who, { ...form, hook, version }, 400);
    const changes = onlyChanges(form.input, hook) as UpdateHookInput;
    // Credentials typed again as the hook has them change nothing either (compared before the update).
    const changed = await hooks.withoutKeptCredentials(who.account.id, hook.id, changes);
    if (Object.keys(changed).length === 0) {
      await ctx.sessions.flash(request, {
        kind: 'success',
        message: 'Nothing to save: no field was changed.',
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    try {
      const updated = await hooks.update(who.account.id, hook.id, changes, who.actor, {
        ifVersion: version,
      });
      if (!updated) return ctx.hookNotFound(request, reply, who, request.params.id);
      const fields = changedHookFields(hook, changed);
      await ctx.audit(request, who, {
        action: hookChangeAction(fields),
        hook_id: hook.id,
        detail: { fields },
      });
      if (updated.signing_secret) return await showSecretOnce(request, reply, updated, false);
      await ctx.sessions.flash(request, { kind: 'success', message: 'Changes saved.' });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    } catch (error) {
      if (error instanceof HooklineError && error.code === 'CONFLICT') return changedMeanwhile();
      return formPage(request, reply, who, { ...storeProblems(error, form.values), hook, version }, 400);
    }
  });

  app.post<{ Params: Params }>('/hooks/:id/signing-secret/rotate', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
    if (!hook.signing) {
      await ctx.sessions.flash(request, {
        kind: 'warning',
        message: 'This hook does not sign its requests.',
      });
      return reply.redirect(`/hooks/${hook.id}`, 303);
    }
    const rotated = await hooks.rotateSigningSecret(who.account.id, hook.id, who.actor);
    if (!rotated) return ctx.hookNotFound(request, reply, who, request.params.id);
    await ctx.audit(request, who, {
      action: 'hook.signing_secret_changed',
      hook_id: hook.id,
      detail: { fields: ['signing_secret'] },
    });
    return showSecretOnce(request, reply, rotated, true);
  });

  app.get<{ Params: Params }>('/hooks/:id/delete', CHANGE_PAGE, async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    const hook = await hooks.get(who.account.id, request.params.id);
    if (!hook) return ctx.hookNotFound(request, reply, who, request.params.id);
    const waiting = await ctx.deps.hookQueues.waitingCount(hook.id);
    return ctx.page(reply, deleteHookPage(await ctx.viewer(request, who), hook, waiting));
  });

  app.post<{ Params: Params }>('/hooks/:id/delete', async (request, reply) => {
    const who = await ctx.require(request, reply);
    if (!who) return reply;
    // Read first: the entry names the endpoint that was deleted, which nothing can tell once it is gone.
    const hook = await hooks.get(who.account.id, request.params.id);
    const removed = hook && (await hooks.remove(who.account.id, hook.id, who.actor));
    if (!removed) return ctx.hookNotFound(request, reply, who, request.params.id);
    await ctx.audit(request, who, { action: 'hook.deleted', hook_id: hook.id, detail: hookNamed(hook) });
    await ctx.sessions.flash(request, { kind: 'success', message: 'Hook deleted.' });
    return reply.redirect('/', 303);
  });
}
