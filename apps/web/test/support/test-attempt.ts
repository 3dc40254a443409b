import { waitUntil } from '@hookline/testing';
import { postForm, signInOverHttp } from './http-session';
import { PASSWORD, type useWebsite } from './website';

/**
 * Signs in as `email`, presses *Send test event* on the hook's page, and answers the page of the attempt the
 * running worker made, as the browser gets it (HTML).
 */
export async function testAttemptPage(
  w: ReturnType<typeof useWebsite>,
  email: string,
  hookId: string,
): Promise<string> {
  const session = await signInOverHttp(w.baseUrl, email, PASSWORD);
  expect((await postForm(w.baseUrl, session, `/hooks/${hookId}/test`, {})).status).toBe(303);
  const [line] = await waitUntil(async () => {
    const { data } = await w.reader.listForHook(hookId, {}, { limit: 1 });
    return data.length > 0 ? data : undefined;
  }, 'the test event’s attempt');
  const res = await fetch(`${w.baseUrl}/hooks/${hookId}/deliveries/${line!.attempt_id}`, {
    headers: { cookie: session.cookie },
  });
  return res.text();
}
