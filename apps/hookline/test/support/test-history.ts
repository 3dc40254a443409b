import { openHistory, type HistoryStore } from '@hookline/history';
import { dropSchema, TEST_DATABASE_URL, uniqueSchema } from '@hookline/testing';

/** The delivery history in a fresh schema of the test PostgreSQL, closed and dropped when the test ends. */
export async function openTestHistory(
  onCleanup: (close: () => Promise<unknown>) => void,
  label = 'hl',
): Promise<HistoryStore> {
  const schema = uniqueSchema(label);
  const history = await openHistory({ kind: 'server', url: TEST_DATABASE_URL, schema });
  onCleanup(async () => {
    await history.close();
    await dropSchema(schema);
  });
  return history;
}
